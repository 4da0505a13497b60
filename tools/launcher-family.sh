# SPDX-License-Identifier: MIT
# launcher_family LAUNCHER: which MPI's launcher LAUNCHER is -- mpich
# (Hydra), openmpi (Open MPI's mpirun) or other -- from what its --version
# says.  One definition for configure and the scripts: make writes it into
# tools/mupcrun, tools/upcrun and tools/mupc-cluster.
launcher_family() {
    case $("$1" --version 2>&1 | head -n 20) in
    *"Open MPI"* | *OpenRTE*) echo openmpi ;;
    *HYDRA* | *Hydra*) echo mpich ;;
    *) echo other ;;
    esac
}

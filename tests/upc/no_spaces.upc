/* SPDX-License-Identifier: MIT */
/* no_spaces.upc -- every construct the translator rewrites, written with
 * no white space around it: a rewrite must never glue two tokens into
 * one (`return(NULL);` in a function returning a pointer-to-shared once
 * became `returnMUPC_NULL_PTR`).  Each value is checked against the same
 * computation written with spaces or through private memory. */
#include <upc.h>
#include <stdio.h>

#define NAME "no_spaces"
#define CHECK(cond,what) do{if(!(cond)){errors++;printf("Error: %s: %s (thread %d, %s:%d)\n",NAME,what,(int)MYTHREAD,__FILE__,__LINE__);}}while(0)

typedef shared int*sip;
shared int a[4*THREADS];
shared[2]int b[4*THREADS];
shared sip dir[THREADS];
shared int*shared shp;
strict shared int flag;

sip null_or(int t){if(t<0)return(NULL);return&a[t];}
sip nul2(void){return NULL;}
int deref(sip p){return*p;}
shared void*gen(sip p){return(shared void*)p;}
size_t sz(void){return sizeof(shared int)+upc_blocksizeof(b)+upc_elemsizeof(b);}
int neg(sip p){return-*p;}
int notp(sip p){return!p;}

int main(void)
{
    int errors=0,i;
    upc_forall(i=0;i<4*THREADS;i++;&a[i])a[i]=i+1;
    upc_forall(i=0;i<4*THREADS;i++;i)b[i]=2*i;
    dir[MYTHREAD]=&a[MYTHREAD];
    if(MYTHREAD==0)shp=&a[1%THREADS];
    upc_barrier;
    upc_fence;
    CHECK(null_or(-1)==NULL,"return(NULL)");
    CHECK(nul2()==NULL,"return NULL");
    CHECK(deref(null_or(2))==3,"return&a[t], return*p");
    CHECK(upc_threadof(gen(&a[1]))==1%THREADS,"return(shared void*)p");
    CHECK(sz()==sizeof(int)+2+sizeof(int),"sizeof(shared int)+upc_blocksizeof");
    CHECK(neg(&a[0])==-1,"return-*p");
    CHECK(notp(NULL)==1&&notp(&a[0])==0,"return!p");
    CHECK(*dir[(MYTHREAD+1)%THREADS]==(MYTHREAD+1)%THREADS+1,"*dir[...]");
    CHECK(*shp==1%THREADS+1,"*shp");
    sip p=(sip)gen((sip)&b[0]);
    CHECK(upc_phaseof((shared[2]int*)gen((sip)&b[1]))==0,"cast to shared[2]int* resets the phase");
    CHECK(*(shared[2]int*)gen((sip)&b[3])==6,"cast then read");
    CHECK(p!=NULL&&p==(sip)&b[0],"compare after cast");
    CHECK(&a[3]>a&&a<&a[1]&&!(a>&a[0]),"an array compared with a pointer into it");
    upc_barrier;
    if(MYTHREAD==0){flag=1;a[0]+=1;a[0]++;++a[0];}
    upc_barrier;
    CHECK(a[0]==4&&flag==1,"compound, ++ and strict store");
    upc_barrier;
    if(errors==0)printf("Success: %s\n",NAME);
    return errors!=0;
}

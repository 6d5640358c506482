/*
 * The few POSIX thread declarations tools/tendon/demo_core.c names (its crowd runs characters on
 * threads), for the wasm32 demo module: wasi-libc has no threads. The page never runs a crowd:
 * pthread_create fails (EAGAIN) and the mutexes do nothing (wasm/src/demo_glue.c).
 */
#ifndef TENDON_WASM_SHIM_PTHREAD_H
#define TENDON_WASM_SHIM_PTHREAD_H

typedef unsigned long pthread_t;
typedef struct { int unused; } pthread_mutex_t;
typedef struct { int unused; } pthread_attr_t;
typedef struct { int unused; } pthread_mutexattr_t;

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
                   void *arg);
int pthread_join(pthread_t thread, void **result);
int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr);
int pthread_mutex_destroy(pthread_mutex_t *m);
int pthread_mutex_lock(pthread_mutex_t *m);
int pthread_mutex_unlock(pthread_mutex_t *m);

#endif

#ifndef LAYOUTD_SYSTEM_SHIM_H
#define LAYOUTD_SYSTEM_SHIM_H
// The Linux and glibc calls that the Glibc module does not export: epoll(7)
// (<sys/epoll.h>), malloc_trim(3) (<malloc.h>) and the compiler's prefetch builtin.
// Header only (static inline), so there is nothing to link beyond glibc itself.
#include <malloc.h>
#include <stdint.h>
#include <sys/epoll.h>

/// epoll_create1(EPOLL_CLOEXEC): a new epoll fd, or -1 with errno set.
static inline int layoutd_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

/// epoll_ctl(2) with an event of `events` (EPOLLIN, EPOLLOUT, ...) carrying `id` in
/// its data. `struct epoll_event` is packed on x86-64 (`data` at offset 4), so it is
/// built here, where the compiler knows its layout. Returns 0, or -1 with errno set.
static inline int layoutd_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t id) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = id;
    return epoll_ctl(epfd, op, fd, &event);
}

/// The size in bytes of one `struct epoll_event` (12 on x86-64, 16 elsewhere).
static inline int layoutd_epoll_event_size(void) {
    return (int)sizeof(struct epoll_event);
}

/// epoll_wait(2) into `events`, a buffer of `capacity` events of
/// layoutd_epoll_event_size() bytes each; `timeout` in ms, -1 for none. Returns the
/// number of events filled, or -1 with errno set.
static inline int layoutd_epoll_wait(int epfd, void *events, int capacity, int timeout) {
    return epoll_wait(epfd, (struct epoll_event *)events, capacity, timeout);
}

/// The flags (EPOLLIN, EPOLLHUP, ...) of the event at `index` of a buffer filled by
/// layoutd_epoll_wait.
static inline uint32_t layoutd_epoll_event_flags(const void *events, int index) {
    return ((const struct epoll_event *)events)[index].events;
}

/// The id (the data given to layoutd_epoll_ctl) of the event at `index` of a buffer
/// filled by layoutd_epoll_wait.
static inline uint64_t layoutd_epoll_event_id(const void *events, int index) {
    return ((const struct epoll_event *)events)[index].data.u64;
}

/// Starts loading the cache line holding `address` for reading, to be kept in every
/// cache level (GCC/Clang __builtin_prefetch(address, 0, 3); x86-64: prefetcht0).
/// A hint: it never faults, whatever the address, and changes no value.
static inline void layoutd_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif

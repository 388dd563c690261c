#pragma once
// Process-wide state behind one lock, safe across fork(): the loaded firmware files
// (fw/shared_firmware.cpp), the code pools kept between simulations (core/code_pool.cpp).
#include <pthread.h>

namespace niclab::sim {

// The one T of the process (T has a `std::mutex mutex`), made at the first call and never
// destroyed: a simulation may end, or a file be loaded, during exit. A fork (a sweep's
// workers are forked) copies only the forking thread, so a lock another thread held at
// that moment would stay locked in the child for ever: the fork takes the lock and both
// sides let go after it, as malloc does with its own. Call it once as the library loads
// as well (`const bool made = (process_wide<T>(), true);` at namespace scope): a thread
// forking while another made it would leave the child waiting on the half-made static.
template <class T>
T& process_wide() {
    static T* made = [] {
        auto* t = new T;
        pthread_atfork([] { process_wide<T>().mutex.lock(); }, [] { process_wide<T>().mutex.unlock(); },
                       [] { process_wide<T>().mutex.unlock(); });
        return t;
    }();
    return *made;
}

}  // namespace niclab::sim

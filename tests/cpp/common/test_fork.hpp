#pragma once
// Forks children while another thread keeps taking a lock, as a sweep forks its workers
// while a simulation runs on a thread of its own: a child that inherited the lock held
// by a thread it does not have would wait forever, so each child runs under an alarm.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <thread>

namespace niclab::test {

struct ForksSeen {
    int forks = 0;  // children forked
    int stuck = 0;  // of those, the ones that did not exit 0 (killed by their alarm)
};

// Up to `forks` children (stopping at the first stuck one), each running `child` (its
// exit status), while `busy` runs again and again on a thread of its own.
template <class Busy, class Child>
ForksSeen fork_while_busy(int forks, unsigned alarm_seconds, Busy busy, Child child) {
    std::atomic<bool> stop{false};
    std::thread busy_thread([&] {
        while (!stop) busy();
    });
    ForksSeen seen;
    for (; seen.forks < forks && seen.stuck == 0; ++seen.forks) {
        const pid_t pid = fork();
        if (pid == 0) {
            alarm(alarm_seconds);
            _exit(child());
        }
        int status = 0;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++seen.stuck;
    }
    stop = true;
    busy_thread.join();
    return seen;
}

}  // namespace niclab::test

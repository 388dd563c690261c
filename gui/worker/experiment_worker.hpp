#pragma once
// Runs one experiment at a time on its own thread (the simulation never runs on the
// GUI thread). Views read the run's RunChannel from a timer; `finished` arrives on the
// GUI thread once the thread has ended.
#include <memory>

#include <QObject>
#include <QThread>

#include "model/experiment_job.hpp"
#include "model/run_channel.hpp"

namespace niclab::gui {

class ExperimentWorker : public QObject {
    Q_OBJECT
public:
    explicit ExperimentWorker(QObject* parent = nullptr);
    ~ExperimentWorker() override;  // cancels and waits: the thread must not outlive the window

    // The channel the run reports to; false (and nothing started) if one is running.
    bool start(ExperimentJob job);
    void cancel();
    bool running() const { return thread_ != nullptr; }
    std::shared_ptr<RunChannel> channel() const { return channel_; }

signals:
    void finished();

private:
    std::shared_ptr<RunChannel> channel_;
    QThread* thread_ = nullptr;
};

}  // namespace niclab::gui

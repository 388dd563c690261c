#include "worker/experiment_worker.hpp"

namespace niclab::gui {

ExperimentWorker::ExperimentWorker(QObject* parent) : QObject(parent) {}

ExperimentWorker::~ExperimentWorker() {
    if (thread_) {
        channel_->cancel();
        thread_->wait();
        delete thread_;
    }
}

bool ExperimentWorker::start(ExperimentJob job) {
    if (thread_) return false;
    channel_ = std::make_shared<RunChannel>();
    // The thread owns copies of the job and the channel, so nothing it reads can go away.
    thread_ = QThread::create([job = std::move(job), channel = channel_] { run_job(job, *channel); });
    connect(thread_, &QThread::finished, this, [this] {
        thread_->deleteLater();
        thread_ = nullptr;
        emit finished();
    });
    thread_->start();
    return true;
}

void ExperimentWorker::cancel() {
    if (channel_) channel_->cancel();
}

}  // namespace niclab::gui

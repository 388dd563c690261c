#include "model/experiment_job.hpp"

#include "niclab/exp/experiments.hpp"
#include "niclab/sim/kernel.hpp"

namespace niclab::gui {

void run_job(const ExperimentJob& job, RunChannel& channel) {
    exp::Observe observe;
    observe.on_point = [&](const exp::Result& r) {
        channel.publish(r);
        return !channel.cancelled();
    };
    observe.cancel = channel.cancel_flag();
    try {
        channel.finish(exp::run_experiment(job.experiment, job.spec, job.options, observe));
    } catch (const sim::Cancelled&) {
        channel.cancelled_within_point();
    } catch (const exp::ExperimentFault& f) {
        // The fault's own report (PC, function+offset, file:line, cause, last records)
        // follows the run's summary of it.
        std::string text = f.what();
        const std::string report = f.fault().what();
        if (text.find(report) == std::string::npos) text += "\n\n" + report;
        channel.fail(text, f.partial());
    } catch (const std::exception& e) {
        // ConfigError, ExperimentError, FirmwareImageError...: each names what is wrong.
        channel.fail(e.what(), std::nullopt);
    }
}

}  // namespace niclab::gui

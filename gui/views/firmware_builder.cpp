#include "views/firmware_builder.hpp"

#include <QCheckBox>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QVBoxLayout>

#include "views/browse_button.hpp"
#include "views/error_dialog.hpp"

namespace niclab::gui {

FirmwareBuilder::FirmwareBuilder(QWidget* parent) : QWidget(parent) {
    source_ = new QLineEdit;
    source_->setObjectName("firmwareSource");
    source_->setPlaceholderText("C source file to build with the SDK");
    auto* browse = browse_button("C…", source_, "Firmware source", "C (*.c);;All files (*)");
    trace_ = new QCheckBox("trace");
    trace_->setObjectName("buildTrace");
    trace_->setToolTip("Build with the trace points of niclab/fw/trace.h on");
    build_ = new QPushButton("Build");
    build_->setObjectName("buildFirmware");
    status_ = new QLabel;
    status_->setObjectName("buildStatus");
    report_ = new QPlainTextEdit;
    report_->setObjectName("sizeReport");
    report_->setReadOnly(true);
    report_->setMaximumHeight(70);
    report_->setPlaceholderText("size report");
    QFont mono("monospace");
    mono.setStyleHint(QFont::Monospace);
    report_->setFont(mono);

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel("Build from C"));
    row->addWidget(source_, 2);
    row->addWidget(browse);
    row->addWidget(trace_);
    row->addWidget(build_);
    row->addWidget(status_, 1);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->addLayout(row);
    v->addWidget(report_);

    connect(build_, &QPushButton::clicked, this, &FirmwareBuilder::build);
}

void FirmwareBuilder::set_source(const QString& path) { source_->setText(path); }
void FirmwareBuilder::set_trace(bool on) { trace_->setChecked(on); }
bool FirmwareBuilder::building() const { return process_ != nullptr; }
QString FirmwareBuilder::size_report() const { return report_->toPlainText(); }

void FirmwareBuilder::build() {
    if (process_) return;
    try {
        plan_ = plan_firmware_build({source_->text().trimmed().toStdString(), trace_->isChecked()});
    } catch (const std::exception& e) {  // InputError: no such file, no cmake
        show_error(this, "Cannot build the firmware", QString::fromUtf8(e.what()));
        return;
    }
    QStringList args;
    for (const auto& a : plan_.args) args << QString::fromStdString(a);
    process_ = new QProcess(this);
    process_->setProcessChannelMode(QProcess::MergedChannels);
    connect(process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        finished(status == QProcess::NormalExit ? code : -1);
    });
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) finished(-1);
    });
    build_->setEnabled(false);
    status_->setText("building " + QString::fromStdString(plan_.name) + (trace_->isChecked() ? " (traced)…" : "…"));
    process_->start(QString::fromStdString(plan_.program), args);
}

void FirmwareBuilder::finished(int exit_code) {
    if (!process_) return;
    log_ = QString::fromUtf8(process_->readAll());
    process_->deleteLater();
    process_ = nullptr;
    build_->setEnabled(true);
    const QString elf = QString::fromStdString(plan_.elf);
    if (exit_code == 0 && QFile::exists(elf)) {
        QFile report(QString::fromStdString(plan_.size_report));
        report_->setPlainText(report.open(QIODevice::ReadOnly) ? QString::fromUtf8(report.readAll()).trimmed() : QString());
        status_->setText("built " + elf);
        emit built(elf);
        return;
    }
    status_->setText("build failed");
    const auto errors = compiler_errors(log_.toStdString());
    QString text = "firmware " + QString::fromStdString(plan_.name) + " does not build:\n";
    if (errors.empty()) {
        text += log_.right(3000);  // no compiler line: the tail of what CMake said
    } else {
        for (const auto& e : errors) text += QString::fromStdString(e.text) + "\n";
    }
    const CompilerMessage* first = errors.empty() ? nullptr : &errors.front();
    show_error(this, "The firmware does not build", text.trimmed(), first ? QString::fromStdString(first->file) : QString(),
               first ? first->line : 0);
    emit failed();
}

}  // namespace niclab::gui

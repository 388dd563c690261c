#pragma once
// Build firmware from C without leaving the workbench: choose a source file, tracing
// on or off, Build. The SDK's recipe runs in a QProcess (never blocking the window);
// the size report is shown and the image offered for loading (`built`). A build that
// fails is a dialog with the compiler's errors and "Show source" at the first one.
#include <QString>
#include <QWidget>

#include "model/firmware_build.hpp"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProcess;
class QPushButton;

namespace niclab::gui {

class FirmwareBuilder : public QWidget {
    Q_OBJECT
public:
    explicit FirmwareBuilder(QWidget* parent = nullptr);

    void set_source(const QString& path);
    void set_trace(bool on);
    bool building() const;
    QString size_report() const;
    QString last_log() const { return log_; }

public slots:
    void build();

signals:
    void built(const QString& elf);  // after a successful build
    void failed();                   // after a failed one (its dialog is open)

private:
    void finished(int exit_code);

    QLineEdit* source_;
    QCheckBox* trace_;
    QPushButton* build_;
    QLabel* status_;
    QPlainTextEdit* report_;
    QProcess* process_ = nullptr;
    FirmwareBuildPlan plan_;
    QString log_;
};

}  // namespace niclab::gui

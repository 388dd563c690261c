// Firmware built from C in the workbench: the SDK's recipe runs in a QProcess (the
// window keeps going), the size report is shown, and the image loads on a node and
// runs; a compile error is a dialog naming the file and line, with its source.
#include <memory>

#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "gui_test_support.hpp"
#include "model/firmware_build.hpp"
#include "model/system_snapshot.hpp"
#include "views/firmware_builder.hpp"
#include "views/main_window.hpp"
#include "views/spec_picker.hpp"
#include "views/system_view.hpp"

using namespace niclab;
using namespace niclab::gui;
using namespace niclab::gui::testing;

namespace {
// Halts with exit code 7 once running: a node that ran it is "halted".
const QByteArray kBlink = R"(#include "niclab/fw/runtime.h"
#include "niclab/fw/trace.h"

int main(void)
{
    fw_set_running();
    trace_val(3);
    fw_halt(7);
}
)";
}  // namespace

class FirmwareBuilderTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;
    QTemporaryDir dir_;
    SystemView* view() { return window_->system_view(); }
    FirmwareBuilder* builder() { return view()->builder(); }
    const SystemSnapshot& shown() { return view()->shown(); }

private slots:
    void init() { window_ = open_window(&MainWindow::system_view); }
    void cleanup() { close_window(window_); }

    void a_c_file_builds_reports_its_size_and_loads_on_a_node() {
        window_->spec()->set_preset("seastar");
        window_->spec()->set_nodes(2);
        QTest::mouseClick(view()->findChild<QPushButton*>("build"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(shown().phase == SystemSnapshot::Phase::paused, 120000);

        builder()->set_source(write_file(dir_, "blink.c", kBlink));
        builder()->set_trace(true);
        QSignalSpy built(builder(), &FirmwareBuilder::built);
        QTest::mouseClick(builder()->findChild<QPushButton*>("buildFirmware"), Qt::LeftButton);
        QVERIFY(builder()->building());  // a process under way, the window not blocked
        QVERIFY(built.wait(180000));
        QVERIFY2(error_dialog() == nullptr, qPrintable(builder()->last_log()));
        const QString elf = built.takeFirst().at(0).toString();
        QCOMPARE(elf, dir_.filePath("blink.elf"));
        QVERIFY(QFile::exists(elf));
        QVERIFY2(builder()->size_report().contains("firmware blink") && builder()->size_report().contains("sram"),
                 qPrintable(builder()->size_report()));
        // The traced build has its trace ring in uncached SRAM.
        QVERIFY(!builder()->size_report().contains("uncached  0 bytes"));
        QCOMPARE(view()->findChild<QLineEdit*>("firmwareImage")->text(), elf);  // offered for loading

        view()->findChild<QLineEdit*>("loadNodes")->setText("1");
        const uint64_t before = shown().notice_id;
        QTest::mouseClick(view()->findChild<QPushButton*>("load"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(shown().notice_id != before, 120000);
        QVERIFY2(error_dialog() == nullptr, shown().notice.c_str());
        QCOMPARE(shown().nodes[1].firmware, std::string("blink"));
        QCOMPARE(shown().nodes[0].firmware, std::string("portals"));
        // Run on: it reaches fw_halt(7).
        QTest::mouseClick(view()->findChild<QPushButton*>("step"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(shown().nodes[1].state, NodeState::halted, 120000);
        screenshot(window_.get(), "system-build");
    }

    void a_compile_error_is_a_dialog_naming_the_file_and_line() {
        builder()->set_source(write_file(dir_, "broken.c", "int main(void)\n{\n    return undefined_thing;\n}\n"));
        QSignalSpy failed(builder(), &FirmwareBuilder::failed);
        builder()->build();
        QVERIFY(failed.wait(180000));
        QVERIFY(error_dialog());
        const QString text = error_dialog()->text();
        QVERIFY2(text.contains("broken.c:3:") && text.contains("undefined_thing"), qPrintable(text));
        QVERIFY(error_dialog()->findChild<QPushButton*>("showSource"));
        QVERIFY(!QFile::exists(dir_.filePath("broken.elf")));
    }

    void a_missing_source_is_a_dialog() {
        builder()->set_source(dir_.filePath("nowhere.c"));
        builder()->build();
        QVERIFY(error_dialog());
        QVERIFY(error_dialog()->text().contains("nowhere.c"));
        QVERIFY(!builder()->building());
    }

    void compiler_errors_are_found_in_a_log() {
        const auto e = compiler_errors("[1/2] Building\n/x/a.c:12:5: error: 'y' undeclared\nnote: here\n"
                                       "/x/b.c:3: undefined reference to `f'\n");
        QCOMPARE(e.size(), size_t(2));
        QCOMPARE(e[0].file, std::string("/x/a.c"));
        QCOMPARE(e[0].line, 12);
        QCOMPARE(e[1].file, std::string("/x/b.c"));
        QCOMPARE(e[1].line, 3);
    }
};

QTEST_MAIN(FirmwareBuilderTest)
#include "test_firmware_builder.moc"

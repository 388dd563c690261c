#pragma once
// What the GUI tests share: the window on the tab under test, screenshots that must
// not be blank, the error dialog a bad input opens, a short spec file, and a cluster
// built from one and a message injected into it.
#include <memory>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QMessageBox>
#include <QPixmap>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTabWidget>
#include <QWidget>

#include "model/system_snapshot.hpp"
#include "views/main_window.hpp"
#include "views/spec_picker.hpp"
#include "views/system_view.hpp"

namespace niclab::gui::testing {

// Grey-level variance of an image: a blank (one-colour) view has none.
inline double variance(const QImage& image) {
    const QImage g = image.convertToFormat(QImage::Format_Grayscale8);
    double sum = 0, sq = 0;
    const double n = double(g.width()) * g.height();
    for (int y = 0; y < g.height(); ++y) {
        const uchar* line = g.constScanLine(y);
        for (int x = 0; x < g.width(); ++x) sum += line[x], sq += double(line[x]) * line[x];
    }
    const double mean = sum / n;
    return sq / n - mean * mean;
}

// Saves `widget` as build/gui-screenshots/<name>.png; fails the test when it is blank.
inline void screenshot(QWidget* widget, const QString& name) {
    QDir().mkpath(NICLAB_SCREENSHOT_DIR);
    // Let deferred layout (chart axes, labels) settle, as it would on a screen.
    QTest::qWait(50);
    const QImage image = widget->grab().toImage();
    QVERIFY2(!image.isNull(), "the widget did not render");
    QVERIFY2(image.save(QString(NICLAB_SCREENSHOT_DIR) + "/" + name + ".png"), "cannot write the screenshot");
    QVERIFY2(variance(image) > 100, qPrintable(name + ": the screenshot is blank"));
}

// The error dialog that is open, if any.
inline QMessageBox* error_dialog() {
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) return box;
    return nullptr;
}

inline void close_dialogs() {
    while (QMessageBox* box = error_dialog()) {
        box->close();
        QApplication::processEvents();
    }
}

// A fresh workbench window, shown on the tab under test (a test's init()).
template <class Tab>
std::unique_ptr<MainWindow> open_window(Tab* (MainWindow::*tab)() const) {
    auto window = std::make_unique<MainWindow>();
    window->show();
    window->tabs()->setCurrentWidget(((*window).*tab)());
    return window;
}

// A test's cleanup(): its dialogs, then its window.
inline void close_window(std::unique_ptr<MainWindow>& window) {
    close_dialogs();
    window.reset();
}

inline QString write_file(QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(text);
    return path;
}

// Builds the cluster `spec` (JSON) describes through a spec file and the system view's
// Build button; true once it is built and paused.
inline bool build_spec(MainWindow& window, QTemporaryDir& dir, const QByteArray& spec) {
    window.spec()->set_spec_file(write_file(dir, "spec.json", spec));
    QTest::mouseClick(window.system_view()->findChild<QPushButton*>("build"), Qt::LeftButton);
    auto phase = [&] { return window.system_view()->shown().phase; };
    return QTest::qWaitFor([&] { return phase() != SystemSnapshot::Phase::building && phase() != SystemSnapshot::Phase::empty; }, 120000) &&
           phase() == SystemSnapshot::Phase::paused;
}

// Clicks an injector's send `button`; true once the outcome (or its error) is shown and
// the button takes the next message.
inline bool send_and_wait(MainWindow& window, QPushButton* button) {
    const uint64_t before = window.system_view()->shown().injection_id;
    QTest::mouseClick(button, Qt::LeftButton);
    return QTest::qWaitFor([&] { return window.system_view()->shown().injection_id > before; }, 120000) &&
           QTest::qWaitFor([&] { return button->isEnabled(); }, 5000);
}

}  // namespace niclab::gui::testing

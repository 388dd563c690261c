#include "views/system_view.hpp"

#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "model/firmware_images.hpp"
#include "model/input_error.hpp"
#include "model/spec_choice.hpp"
#include "views/browse_button.hpp"
#include "views/counter_table.hpp"
#include "views/error_dialog.hpp"
#include "views/firmware_builder.hpp"
#include "views/spec_picker.hpp"
#include "views/topology_scene.hpp"
#include "worker/system_worker.hpp"

namespace niclab::gui {

namespace {
constexpr int kRefreshMs = 100;

const char* phase_text(SystemSnapshot::Phase p) {
    switch (p) {
        case SystemSnapshot::Phase::empty: return "no cluster: press Build";
        case SystemSnapshot::Phase::building: return "building and booting…";
        case SystemSnapshot::Phase::paused: return "paused";
        case SystemSnapshot::Phase::running: return "running";
        case SystemSnapshot::Phase::idle: return "idle: every core asleep and no event pending";
        case SystemSnapshot::Phase::failed: return "could not be built";
    }
    return "";
}
}  // namespace

SystemView::SystemView(SpecPicker* spec, QWidget* parent)
    : QWidget(parent), spec_(spec), worker_(new SystemWorker(this)), scene_(new TopologyScene(this)) {
    build_ = new QPushButton("Build / Reset");
    build_->setObjectName("build");
    run_ = new QPushButton("Run");
    run_->setObjectName("runSystem");
    pause_ = new QPushButton("Pause");
    pause_->setObjectName("pause");
    step_ = new QPushButton("Step");
    step_->setObjectName("step");
    step_us_ = new QDoubleSpinBox;
    step_us_->setObjectName("stepUs");
    step_us_->setRange(0.001, 1e9);
    step_us_->setDecimals(3);
    step_us_->setValue(100);
    step_us_->setSuffix(" µs");
    phase_ = new QLabel(phase_text(SystemSnapshot::Phase::empty));
    phase_->setObjectName("phase");
    auto* bar = new QHBoxLayout;
    for (QWidget* w : std::initializer_list<QWidget*>{build_, run_, pause_, step_, step_us_}) bar->addWidget(w);
    bar->addWidget(phase_, 1);

    image_ = new QLineEdit;
    image_->setObjectName("firmwareImage");
    image_->setPlaceholderText("built image name (portals, hello, ...) or ELF path");
    auto* browse = browse_button("ELF…", image_, "Firmware ELF", "ELF (*.elf);;All files (*)");
    load_nodes_ = new QLineEdit;
    load_nodes_->setObjectName("loadNodes");
    load_nodes_->setPlaceholderText("all");
    load_nodes_->setMaximumWidth(120);
    load_ = new QPushButton("Load / reload");
    load_->setObjectName("load");
    notice_ = new QLabel;
    notice_->setObjectName("notice");
    notice_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* firmware = new QHBoxLayout;
    firmware->addWidget(new QLabel("Firmware"));
    firmware->addWidget(image_, 2);
    firmware->addWidget(browse);
    firmware->addWidget(new QLabel("on nodes"));
    firmware->addWidget(load_nodes_);
    firmware->addWidget(load_);
    connect(load_, &QPushButton::clicked, this, &SystemView::load_firmware);
    builder_ = new FirmwareBuilder;
    connect(builder_, &FirmwareBuilder::built, this, [this](const QString& elf) {
        image_->setText(elf);  // offered for Load / reload
        notice_->setText("built " + elf + ": press Load / reload to boot it");
    });

    view_ = new QGraphicsView(scene_);
    view_->setRenderHint(QPainter::Antialiasing);
    counter_table_ = new CounterTable(this);
    counters_ = new QTableView;
    counters_->setObjectName("counters");
    counters_->setModel(counter_table_);
    counters_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    counters_->verticalHeader()->setDefaultSectionSize(18);
    auto* split = new QSplitter;
    split->addWidget(view_);
    split->addWidget(counters_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({720, 420});

    auto* v = new QVBoxLayout(this);
    v->addLayout(bar);
    v->addLayout(firmware);
    v->addWidget(builder_);
    v->addWidget(notice_);
    v->addWidget(split, 1);

    timer_ = new QTimer(this);
    timer_->setInterval(kRefreshMs);
    connect(timer_, &QTimer::timeout, this, &SystemView::refresh);
    connect(build_, &QPushButton::clicked, this, &SystemView::build);
    connect(run_, &QPushButton::clicked, this, &SystemView::run);
    connect(pause_, &QPushButton::clicked, this, &SystemView::pause);
    connect(step_, &QPushButton::clicked, this, &SystemView::step);
    timer_->start();
    update_buttons();
}

SystemView::~SystemView() = default;

void SystemView::build() {
    system::SystemSpec spec;
    try {
        spec = build_spec(spec_->choice());
    } catch (const std::exception& e) {  // InputError, ConfigError: each names its key or file
        show_error(this, "Cannot build the system", QString::fromUtf8(e.what()));
        return;
    }
    worker_->build(std::move(spec));
    fault_reported_.clear();
    refresh();
}

void SystemView::run() {
    worker_->run();
    wall_.start();
    speed_from_ = shown_->now;
}

void SystemView::pause() { worker_->pause(); }

void SystemView::step() {
    worker_->step(Time::ps(int64_t(step_us_->value() * 1e6)));
    wall_.start();
    speed_from_ = shown_->now;
}

void SystemView::load_firmware() {
    std::vector<size_t> nodes;
    std::string elf;
    try {
        const QString text = image_->text().trimmed();
        if (text.isEmpty()) throw InputError("firmware: name a built image (portals, hello, ...) or an ELF file");
        elf = resolve_firmware(text.toStdString());
        for (const QString& part : load_nodes_->text().split(',', Qt::SkipEmptyParts)) {
            bool ok = false;
            const uint n = part.trimmed().toUInt(&ok);
            if (!ok) throw InputError("nodes: \"" + part.trimmed().toStdString() + "\" is not a node number");
            nodes.push_back(n);
        }
    } catch (const std::exception& e) {
        show_error(this, "Cannot load the firmware", QString::fromUtf8(e.what()));
        return;
    }
    notice_->setText("loading " + QString::fromStdString(elf) + "…");
    worker_->load(std::move(nodes), std::move(elf));
}

void SystemView::refresh() {
    if (worker_->version() == shown_->version) return;
    std::shared_ptr<const SystemSnapshot> s = worker_->snapshot();
    const bool failed_now = s->phase == SystemSnapshot::Phase::failed && shown_->phase != SystemSnapshot::Phase::failed;
    shown_ = std::move(s);
    if (wall_.isValid() && wall_.elapsed() > 0 && shown_->now > speed_from_)
        speed_us_per_s_ = (shown_->now - speed_from_).as_us() / (double(wall_.elapsed()) / 1000.0);
    phase_->setText(QString(phase_text(shown_->phase)) +
                    (shown_->description.empty() ? QString() : " — " + QString::fromStdString(shown_->description)));
    scene_->show(*shown_);
    counter_table_->show(*shown_);
    update_buttons();
    emit status(QString("simulated time %1 µs   speed %2 simulated µs / s")
                    .arg(shown_->now.as_us(), 0, 'f', 3)
                    .arg(speed_us_per_s_, 0, 'f', 1));
    if (failed_now) show_error(this, "Cannot build the system", QString::fromStdString(shown_->error));
    if (shown_->notice_id != notice_seen_) {
        notice_seen_ = shown_->notice_id;
        notice_->setText(QString::fromStdString(shown_->notice).trimmed().replace('\n', "; "));
        if (shown_->notice_error) show_error(this, "Cannot load the firmware", QString::fromStdString(shown_->notice));
    }
    // A fault is reported once, whether it came while booting or while running.
    fault_reported_.resize(shown_->nodes.size(), false);
    for (size_t n = 0; n < shown_->nodes.size(); ++n)
        if (shown_->nodes[n].state == NodeState::faulted && !fault_reported_[n]) {
            fault_reported_[n] = true;
            show_error(this, QString("Node %1 faulted").arg(n), QString::fromStdString(shown_->nodes[n].reason),
                       QString::fromStdString(shown_->nodes[n].fault_source), shown_->nodes[n].fault_line);
        }
    emit snapshot_shown();
}

void SystemView::update_buttons() {
    const bool have = shown_->phase == SystemSnapshot::Phase::paused || shown_->phase == SystemSnapshot::Phase::running ||
                      shown_->phase == SystemSnapshot::Phase::idle;
    run_->setEnabled(have && shown_->phase != SystemSnapshot::Phase::running);
    step_->setEnabled(have && shown_->phase != SystemSnapshot::Phase::running);
    pause_->setEnabled(shown_->phase == SystemSnapshot::Phase::running);
    load_->setEnabled(have);
}

}  // namespace niclab::gui

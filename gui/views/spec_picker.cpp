#include "views/spec_picker.hpp"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include "niclab/net/topology_registry.hpp"
#include "niclab/system/preset.hpp"
#include "niclab/system/system_model.hpp"

namespace niclab::gui {

namespace {
const QString kSystemDefault = "(system default)";
}

SpecPicker::SpecPicker(QWidget* parent) : QWidget(parent) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(4, 4, 4, 4);

    preset_ = new QComboBox;
    preset_->setObjectName("preset");
    for (const system::SystemModel* model : system::system_models())
        for (const auto& name : system::Preset::names()) {
            const auto preset = system::Preset::named(name);
            if (preset.system() != model->name()) continue;
            preset_->addItem(QString::fromStdString(model->name() + " / " + name), QString::fromStdString(name));
            preset_->setItemData(preset_->count() - 1, QString::fromStdString(preset.description()), Qt::ToolTipRole);
        }
    nodes_ = new QSpinBox;
    nodes_->setObjectName("nodes");
    nodes_->setRange(1, int(system::SystemSpec::kMaxNodes));
    nodes_->setValue(2);
    // A kind from the list, or typed with its keys as the command line's --topology takes
    // it: a mesh or torus needs its dims, e.g. Red Storm's mesh:dims=27x16x24:wrap=[false,false,true].
    topology_ = new QComboBox;
    topology_->setObjectName("topology");
    topology_->setEditable(true);
    topology_->setInsertPolicy(QComboBox::NoInsert);
    topology_->setMinimumContentsLength(24);
    topology_->addItem(kSystemDefault);
    for (const auto& kind : net::topology_kinds()) topology_->addItem(QString::fromStdString(kind));
    topology_->setToolTip("KIND[:KEY=VALUE...], e.g. torus:dims=4x4x4, or Red Storm's "
                          "mesh:dims=27x16x24:wrap=[false,false,true] (a spec's topology object in JSON works too)");
    seed_ = new QSpinBox;
    seed_->setObjectName("seed");
    seed_->setRange(0, 1 << 30);
    auto* open = new QPushButton("Open spec…");
    file_ = new QLabel;
    clear_ = new QPushButton("Use fields");
    clear_->setVisible(false);

    row->addWidget(new QLabel("Preset"));
    row->addWidget(preset_, 2);
    row->addWidget(new QLabel("Nodes"));
    row->addWidget(nodes_);
    row->addWidget(new QLabel("Topology"));
    row->addWidget(topology_);
    row->addWidget(new QLabel("Seed"));
    row->addWidget(seed_);
    row->addWidget(open);
    row->addWidget(file_, 1);
    row->addWidget(clear_);

    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, "Open a system spec", {}, "System spec (*.json)");
        if (!path.isEmpty()) set_spec_file(path);
    });
    connect(clear_, &QPushButton::clicked, this, [this] { set_spec_file({}); });
    connect(preset_, &QComboBox::currentIndexChanged, this, &SpecPicker::changed);
    connect(topology_, &QComboBox::currentTextChanged, this, &SpecPicker::changed);
    for (auto* spin : {nodes_, seed_}) connect(spin, &QSpinBox::valueChanged, this, &SpecPicker::changed);
}

SpecChoice SpecPicker::choice() const {
    SpecChoice c;
    c.preset = preset_->currentData().toString().toStdString();
    c.nodes = uint32_t(nodes_->value());
    c.seed = uint64_t(seed_->value());
    const QString topology = topology_->currentText().trimmed();
    c.topology = topology == kSystemDefault ? std::string() : topology.toStdString();
    c.spec_file = spec_file_.toStdString();
    return c;
}

void SpecPicker::set_spec_file(const QString& path) {
    spec_file_ = path;
    const bool fields = path.isEmpty();
    for (QWidget* w : std::initializer_list<QWidget*>{preset_, nodes_, topology_, seed_}) w->setEnabled(fields);
    file_->setText(fields ? QString() : QFileInfo(path).fileName());
    file_->setToolTip(path);
    clear_->setVisible(!fields);
    emit changed();
}

void SpecPicker::set_preset(const QString& name) {
    const int i = preset_->findData(name);
    if (i >= 0) preset_->setCurrentIndex(i);
}

void SpecPicker::set_nodes(int nodes) { nodes_->setValue(nodes); }

void SpecPicker::set_topology(const QString& text) { topology_->setCurrentText(text.isEmpty() ? kSystemDefault : text); }

}  // namespace niclab::gui

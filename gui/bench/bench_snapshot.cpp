// What the system view costs per refresh on a large cluster: SystemSession::snapshot on
// the system worker (every node's state and counters; the worker publishes at most a
// tenth of its time, so this sets how often a running Red Storm is redrawn), and on the
// GUI thread the counters table's and the drawing's taking of a new snapshot and the
// drawing's paint. SeaStar nodes with Portals firmware, run 5 us so their counters are
// live: a mesh of 512 nodes and Red Storm's 27x16x24 z-torus.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>

#include <QApplication>
#include <QImage>
#include <QPainter>

#include "model/system_session.hpp"
#include "views/counter_table.hpp"
#include "views/topology_scene.hpp"

using namespace niclab;

namespace {

gui::SystemSession& session(unsigned nodes, const std::string& dims, const std::string& wrap) {
    static std::unique_ptr<gui::SystemSession> built;
    static std::string built_for;
    if (built_for != dims) {
        built.reset();  // one large cluster at a time
        const auto spec = system::SystemSpec::from_json(nlohmann::json::parse(
            R"({"preset": "seastar", "nodes": )" + std::to_string(nodes) + R"(, "topology": {"kind": "mesh", "dims": )" + dims + R"(, "wrap": )" + wrap +
            R"(}, "firmware": ")" NICLAB_FIRMWARE_DIR R"(/portals/portals.elf"})"));
        built = std::make_unique<gui::SystemSession>(spec);
        built->advance(Time::us(5));
        built_for = dims;
    }
    return *built;
}

void run(benchmark::State& state, gui::SystemSession& s) {
    for (auto _ : state) benchmark::DoNotOptimize(s.snapshot());
    state.counters["nodes"] = double(s.snapshot().nodes.size());
}

void BM_Snapshot_Mesh512(benchmark::State& state) { run(state, session(512, "[8, 8, 8]", "[false, false, false]")); }
void BM_Snapshot_RedStorm(benchmark::State& state) { run(state, session(10368, "[27, 16, 24]", "[false, false, true]")); }

// The GUI thread's part: the counters table takes a new snapshot.
void BM_CounterTableShow_RedStorm(benchmark::State& state) {
    const gui::SystemSnapshot snap = session(10368, "[27, 16, 24]", "[false, false, true]").snapshot();
    gui::CounterTable table;
    for (auto _ : state) table.show(snap);
}

// The drawing takes two snapshots 1 us apart in turn, so every node's counters change
// at each.
void BM_TopologySceneShow_RedStorm(benchmark::State& state) {
    gui::SystemSession& s = session(10368, "[27, 16, 24]", "[false, false, true]");
    const gui::SystemSnapshot before = s.snapshot();
    s.advance(Time::us(1));
    const gui::SystemSnapshot after = s.snapshot();
    gui::TopologyScene scene;
    scene.show(before);  // the first drawing builds the items
    bool flip = false;
    for (auto _ : state) scene.show((flip = !flip) ? after : before);
}

// The first drawing: every item made, the scene's index built (by a first query), and the
// items polished (the window's event loop does that on its next turn).
void BM_TopologySceneFirstDrawing_RedStorm(benchmark::State& state) {
    const gui::SystemSnapshot snap = session(10368, "[27, 16, 24]", "[false, false, true]").snapshot();
    for (auto _ : state) {
        auto scene = std::make_unique<gui::TopologyScene>();
        scene->show(snap);
        benchmark::DoNotOptimize(scene->items(scene->node_centre(0)));
        QCoreApplication::processEvents();
        state.PauseTiming();
        scene.reset();
        state.ResumeTiming();
    }
}

// Taking Red Storm's drawing down for a system of another shape (a pair of nodes): every
// item of the old drawing deleted, then the new one's made. The old drawing has been
// through the event loop, as in the window: a scene deletes an item it has not polished
// yet by a search of its list of those, so without that turn the same take-down costs
// about 0.8 s (quadratic in the items) instead of a few tens of milliseconds.
void BM_TopologySceneTakeDown_RedStorm(benchmark::State& state) {
    const gui::SystemSnapshot large = session(10368, "[27, 16, 24]", "[false, false, true]").snapshot();
    gui::SystemSnapshot pair = large;
    pair.nodes.resize(2);
    pair.routers = 0;
    pair.cables.clear();
    for (auto _ : state) {
        state.PauseTiming();
        gui::TopologyScene scene;
        scene.show(large);
        benchmark::DoNotOptimize(scene.items(scene.node_centre(0)));
        QCoreApplication::processEvents();  // as the window's event loop would
        state.ResumeTiming();
        scene.show(pair);
        benchmark::DoNotOptimize(scene.items(scene.node_centre(0)));
    }
}

// Painting the drawing into a window-sized image: all of Red Storm (too small to read a
// label), and a window's worth at full size around node 0 (every label on it written).
void paint(benchmark::State& state, bool whole) {
    gui::SystemSession& s = session(10368, "[27, 16, 24]", "[false, false, true]");
    const gui::SystemSnapshot snap = s.snapshot();
    gui::TopologyScene scene;
    scene.show(snap);
    QImage image(1200, 800, QImage::Format_ARGB32_Premultiplied);
    const QPointF centre = scene.node_centre(0);
    const QRectF source = whole ? scene.sceneRect() : QRectF(centre.x() - 600, centre.y() - 100, 1200, 800);
    for (auto _ : state) {
        QPainter painter(&image);
        scene.render(&painter, image.rect(), source);
    }
}
void BM_TopologyScenePaint_RedStormWhole(benchmark::State& state) { paint(state, true); }
void BM_TopologyScenePaint_RedStormFullSize(benchmark::State& state) { paint(state, false); }

BENCHMARK(BM_Snapshot_Mesh512)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Snapshot_RedStorm)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CounterTableShow_RedStorm)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TopologySceneFirstDrawing_RedStorm)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TopologySceneShow_RedStorm)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TopologySceneTakeDown_RedStorm)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TopologyScenePaint_RedStormWhole)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TopologyScenePaint_RedStormFullSize)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    // The drawing's items need a GUI application; no display is needed.
    setenv("QT_QPA_PLATFORM", "offscreen", 0);
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
}

// A topology on one line (the command line's --topology, the GUI's topology field): the
// short form and the JSON object read into the description, written back, and refused
// with what form is wanted.
#include <gtest/gtest.h>

#include "niclab/net/topology_registry.hpp"
#include "niclab/net/topology_text.hpp"

namespace niclab::net {
namespace {

using nlohmann::json;

std::string refusal(const std::string& text) {
    try {
        topology_from_text(text);
    } catch (const TopologyConfigError& e) {
        EXPECT_EQ(e.key_path(), "topology");
        return e.problem();
    }
    return "(read)";
}

TEST(TopologyText, TheShortFormReadsSizesAsNumbersAndOtherValuesAsJsonOrText) {
    EXPECT_EQ(topology_from_text("mesh:dims=27x16x24:wrap=[false,false,true]"),
              (json{{"kind", "mesh"}, {"dims", {27, 16, 24}}, {"wrap", {false, false, true}}}));
    EXPECT_EQ(topology_from_text("torus"), (json{{"kind", "torus"}}));
    EXPECT_EQ(topology_from_text("fat_tree:leaves=4:nodes_per_leaf=8:spines=2"),
              (json{{"kind", "fat_tree"}, {"leaves", 4}, {"nodes_per_leaf", 8}, {"spines", 2}}));
    EXPECT_EQ(topology_from_text("crossbar:note=a switch"), (json{{"kind", "crossbar"}, {"note", "a switch"}}));
    EXPECT_EQ(topology_from_text("mesh:dims=4x"), (json{{"kind", "mesh"}, {"dims", "4x"}}));  // not sizes: text
    EXPECT_EQ(topology_from_text(" {\"kind\": \"torus\", \"dims\": [2, 2, 2]} "),
              (json{{"kind", "torus"}, {"dims", {2, 2, 2}}}));
}

TEST(TopologyText, AMalformedLineSaysWhatFormIsWanted) {
    EXPECT_NE(refusal("").find("wants KIND[:KEY=VALUE...]"), std::string::npos);
    EXPECT_NE(refusal(":dims=2x2x2").find("wants KIND[:KEY=VALUE...]"), std::string::npos);
    EXPECT_NE(refusal("torus:dims").find("after torus:, e.g. dims=4x4x4 (got 'dims')"), std::string::npos);
    EXPECT_NE(refusal("torus:=4").find("(got '=4')"), std::string::npos);
    EXPECT_NE(refusal("torus:").find("(got '')"), std::string::npos);
    EXPECT_NE(refusal("{kind: torus}").find("not a JSON object"), std::string::npos);
    EXPECT_NE(refusal("{\"kind\": \"torus\"").find("not a JSON object"), std::string::npos);
}

TEST(TopologyText, TheWrittenFormReadsBackAsTheSameDescription) {
    for (const char* text : {"mesh:dims=27x16x24:wrap=[false,false,true]", "torus:dims=4x4x4:routing=table",
                             "fat_tree:leaves=4:nodes_per_leaf=8:spines=2", "crossbar", "kary_ntree:arity=2:levels=3"}) {
        const json description = topology_from_text(text);
        EXPECT_EQ(topology_text(description), text);
        EXPECT_EQ(topology_from_text(topology_text(description)), description);
    }
    // No short form: a kind that is not a string, or not an object at all.
    EXPECT_EQ(topology_text(json{{"kind", 3}}), "{\"kind\":3}");
    EXPECT_EQ(topology_text(json::array({1, 2})), "[1,2]");
    // Lists that are not sizes stay JSON and read back so.
    const json odd{{"kind", "mesh"}, {"dims", {-1, 2, 3}}, {"wrap", {true}}};
    EXPECT_EQ(topology_text(odd), "mesh:dims=[-1,2,3]:wrap=[true]");
    EXPECT_EQ(topology_from_text(topology_text(odd)), odd);
    // Texts that would not read back bare keep their quotes; one with a colon, or an
    // object, has only the JSON form.
    EXPECT_EQ(topology_text(json{{"kind", "mesh"}, {"note", "12"}}), "mesh:note=\"12\"");
    EXPECT_EQ(topology_text(json{{"kind", "mesh"}, {"note", "a:b"}}), "{\"kind\":\"mesh\",\"note\":\"a:b\"}");
    for (const json& value : {json("true"), json("12"), json("a:b"), json(""), json(" x"), json{{"a", 1}}}) {
        const json description{{"kind", "mesh"}, {"note", value}};
        EXPECT_EQ(topology_from_text(topology_text(description)), description) << topology_text(description);
    }
}

TEST(TopologyText, ADescriptionReadFromTextBuildsAsTheJsonOneDoes) {
    const TopologySpec spec = topology_from_json(topology_from_text("mesh:dims=27x16x24:wrap=[false,false,true]"), 10368);
    EXPECT_EQ(topology_nodes(spec), 10368u);
}

}  // namespace
}  // namespace niclab::net

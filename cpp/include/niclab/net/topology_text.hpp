#pragma once
// A topology description on one line, as the command line's --topology and the GUI's
// topology field take it: the JSON object itself, or shorter KIND[:KEY=VALUE...], where
// a value such as 27x16x24 is a list of whole numbers and any other is JSON (or, when it
// is not JSON, text). Red Storm's machine, a 27 x 16 x 24 mesh closed into a torus in z:
//     mesh:dims=27x16x24:wrap=[false,false,true]
// Only the form is read here; topology_from_json checks the keys and values and names
// the wrong one ("topology.dims").
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace niclab::net {

// The description `text` writes; TopologyConfigError("topology", ...) saying what form
// is wanted when it is neither form.
nlohmann::json topology_from_text(std::string_view text);
// `description` written in the short form (the JSON object where it has none, e.g. a
// kind that is not a string); topology_from_text reads it back as the same object.
std::string topology_text(const nlohmann::json& description);

}  // namespace niclab::net

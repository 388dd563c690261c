#pragma once
// The published values a result can be drawn against: the entries of its system's
// published.json (system/published.hpp) for the same experiment, column, unit and
// options (transport, op) that give a point (an "x"). The GUI's plots use it; the
// Python plots (plots.published_points) apply the same rule.
#include <string>
#include <vector>

#include "niclab/exp/result.hpp"

namespace niclab::exp {

struct PublishedPoint {
    double x = 0;       // the x column's value (message size, B)
    double value = 0;   // in the column's unit
    std::string label;  // "<system>: <source>"
};

std::vector<PublishedPoint> published_points(const Result& result, const std::string& column);

}  // namespace niclab::exp

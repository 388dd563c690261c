#pragma once
// What the injector's forms share: an integer field named for the tests that fill it
// in, and a number typed as text (hex with 0x) read or refused naming its field.
#include <cstdint>
#include <string>

#include <QLineEdit>
#include <QSpinBox>
#include <QString>

#include "model/input_error.hpp"

namespace niclab::gui {

inline QSpinBox* spin_field(const char* name, int lo, int hi, int value, const char* suffix = "") {
    auto* s = new QSpinBox;
    s->setObjectName(name);
    s->setRange(lo, hi);
    s->setValue(value);
    s->setSuffix(suffix);
    return s;
}

// `text` as a number of at most `max`: 0x.. hex, 0.. octal, else decimal; InputError
// naming `what` otherwise.
inline uint64_t parse_number(const QString& text, const std::string& what, uint64_t max = UINT64_MAX) {
    bool ok = false;
    const uint64_t v = text.trimmed().toULongLong(&ok, 0);
    if (!ok || v > max)
        throw InputError(what + ": \"" + text.toStdString() + "\" is not a " + (max == UINT64_MAX ? "64" : "32") + "-bit number");
    return v;
}

}  // namespace niclab::gui

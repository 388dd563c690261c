#!/usr/bin/env bash
# Installs the Debian packages niclab builds and tests with (DESIGN.md, Dependencies).
# Does nothing when they are all present, so `make` stays fast after the first run.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
  libdw-dev libelf-dev libboost-context-dev nlohmann-json3-dev libisal-dev libdivide-dev libxbyak-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  qemu-system-misc gdb-multiarch
  tshark
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev libgl-dev
  python3 python3-venv python3-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

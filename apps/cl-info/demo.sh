#!/usr/bin/env bash
# Main-job step for cl-info: the OpenCL devices, and the framework's self-test on the best one.
set -euo pipefail
cd "$(dirname "$0")/../.."
./build/apps/cl-info/cl-info

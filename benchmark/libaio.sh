#!/usr/bin/env bash
# Makes sure libaio is installed, so that Artemis in the benchmark's WildFly runs its ASYNCIO journal, as on a
# production Linux host; without it Artemis falls back to NIO (the benchmark still runs and reports which ran).
# Run by the benchmark profile before WildFly starts. Debian/Ubuntu: libaio1 (libaio1t64 on newer releases).
if ldconfig -p 2>/dev/null | grep -q 'libaio\.so\.1'; then
  echo "[benchmark] libaio present: Artemis can use its ASYNCIO journal"
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  for pkg in libaio1 libaio1t64; do
    if apt-cache policy "$pkg" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
      echo "[benchmark] installing $pkg for Artemis's ASYNCIO journal"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null && break
    fi
  done
  if ! ldconfig -p 2>/dev/null | grep -q 'libaio\.so\.1'; then
    apt-get update -qq >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libaio1 >/dev/null 2>&1 \
      || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libaio1t64 >/dev/null 2>&1
  fi
fi
if ldconfig -p 2>/dev/null | grep -q 'libaio\.so\.1'; then
  echo "[benchmark] libaio installed: Artemis can use its ASYNCIO journal"
else
  echo "[benchmark] WARNING: libaio is missing and could not be installed: Artemis will run its NIO journal"
fi
exit 0

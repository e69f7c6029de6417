#!/usr/bin/env bash
# Installs postern from this checkout: Bun from the npm registry when missing, dependencies,
# the single executable dist/postern, and a link onto the PATH. Idempotent.
#   ./install.sh            user install (/usr/local/bin when root, else ~/.local/bin)
#   ./install.sh --system   also /etc/postern/postern.toml, /var/lib/postern, a postern user and a systemd unit
set -euo pipefail
cd "$(dirname "$0")"

system=0
for arg in "$@"; do
  case "$arg" in
    --system) system=1 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

say() { printf 'install.sh: %s\n' "$*"; }

if ! command -v bun >/dev/null 2>&1; then
  say "installing Bun from the npm registry"
  if [ "$(id -u)" = 0 ]; then npm install -g --silent bun; else npm install -g --silent --prefix "$HOME/.local" bun; export PATH="$HOME/.local/bin:$PATH"; fi
  command -v bun >/dev/null 2>&1 || { echo "install.sh: bun is still not on the PATH" >&2; exit 1; }
fi
say "bun $(bun --version)"

bun install --frozen-lockfile >/dev/null 2>&1 || bun install
bun run build.ts >/dev/null
say "built dist/postern"

if [ "$(id -u)" = 0 ]; then bindir=/usr/local/bin; else bindir="$HOME/.local/bin"; fi
mkdir -p "$bindir"
ln -sf "$(pwd)/dist/postern" "$bindir/postern"
say "linked $bindir/postern"
case ":$PATH:" in *":$bindir:"*) ;; *) say "note: add $bindir to your PATH" ;; esac

if [ "$system" = 1 ]; then
  [ "$(id -u)" = 0 ] || { echo "install.sh: --system needs root" >&2; exit 1; }
  id postern >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postern --shell /usr/sbin/nologin postern
  install -d -o postern -g postern -m 0750 /var/lib/postern /var/lib/postern/templates
  install -d -m 0755 /etc/postern
  if [ ! -s /etc/postern/postern.toml ]; then
    tmp=$(mktemp)
    sed -e 's|^data_dir = "[^"]*"|data_dir = "/var/lib/postern"|' \
        -e 's|^templates_dir = "[^"]*"|templates_dir = "/var/lib/postern/templates"|' \
        config/postern.example.toml > "$tmp"
    install -m 0640 -o root -g postern "$tmp" /etc/postern/postern.toml
    rm -f "$tmp"
    say "wrote /etc/postern/postern.toml"
  fi
  install -m 0755 dist/postern /usr/local/bin/postern.bin 2>/dev/null && mv -f /usr/local/bin/postern.bin /usr/local/bin/postern
  sed "s#@BIN@#/usr/local/bin/postern#" config/postern.service > /tmp/postern.service.$$
  if [ -d /etc/systemd/system ]; then install -m 0644 /tmp/postern.service.$$ /etc/systemd/system/postern.service; unit=/etc/systemd/system/postern.service
  else install -d /etc/postern/systemd; install -m 0644 /tmp/postern.service.$$ /etc/postern/systemd/postern.service; unit=/etc/postern/systemd/postern.service; fi
  rm -f /tmp/postern.service.$$
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    systemctl daemon-reload; say "wrote $unit; start it with: systemctl enable --now postern"
  else
    say "wrote $unit (systemd is not running here: not started)"
  fi
fi

# Sourced by scripts/install-*.sh. apt_install <what needs them> <package>...: installs Debian
# packages with apt-get, as root or through sudo, without starting a service a package ships (there
# is no init system here to stop it again).
apt_install() {
  local purpose="$1"
  shift
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$purpose: install these Debian packages by hand: $*" >&2
    return 1
  fi
  local sudo=()
  if [[ "$(id -u)" -ne 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "Run as root or install sudo to install: $*" >&2
      return 1
    fi
    sudo=(sudo)
  fi
  echo "Installing $* ..."
  local policy=/usr/sbin/policy-rc.d created=false status=0
  if [[ ! -e "$policy" ]]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null
    "${sudo[@]}" chmod 755 "$policy"
    created=true
  fi
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get update -qq || status=$?
  if [[ $status -eq 0 ]]; then
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$@" >/dev/null || status=$?
  fi
  if [[ "$created" == true ]]; then "${sudo[@]}" rm -f "$policy"; fi
  return $status
}

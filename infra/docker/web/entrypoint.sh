#!/bin/sh
# Entrypoint of the web image: renders infra/nginx's templates (the same files the native stack
# renders with infra/nginx/render.mjs) and /config.json from the environment, then runs nginx in the
# foreground as the image's unprivileged user. `--render-only` stops after rendering (used by the
# tests, which run this script on the host and check the result with `nginx -t`).
#
#   API_UPSTREAM            host:port of the api inside the Compose network   (api:3001)
#   NGINX_LISTEN_PORT       port nginx listens on inside the container         (8000)
#   FIREBASE_PROJECT_ID, FIREBASE_API_KEY, FIREBASE_AUTH_DOMAIN, FIREBASE_APP_ID, FIREBASE_STORAGE_BUCKET
#   WEB_AUTH_EMULATOR       browser-facing Auth emulator URL, e.g. http://localhost:9099 (empty: none)
#   WEB_FIRESTORE_EMULATOR  browser-facing Firestore emulator host:port (empty: none)
#   WEB_STORAGE_EMULATOR    browser-facing Storage emulator host:port (empty: none)
# A pilot (docker-compose.pilot.yml) sets NGINX_SITE=pilot: one HTTPS origin (infra/nginx/pilot.conf.template)
# that serves the app, /api and the backend's Auth, Firestore and Storage paths, and names itself in
# /config.json instead of the WEB_*_EMULATOR values:
#   PILOT_HOST, PILOT_PORT  the name and port browsers use (the origin https://PILOT_HOST[:PILOT_PORT])
#   AUTH_UPSTREAM, FIRESTORE_UPSTREAM, STORAGE_UPSTREAM  host:port of the backend's public listeners
#   TLS_CERT, TLS_KEY       the certificate files (written by the `tls` service)
set -eu

PREFIX=${NGINX_PREFIX:-/tmp/bosted-web}
TEMPLATES=${NGINX_TEMPLATES:-/etc/bosted/nginx}
WEB_ROOT=${WEB_ROOT:-/srv/www}
APP_PORT=${NGINX_LISTEN_PORT:-8000}
API_UPSTREAM=${API_UPSTREAM:-api:3001}
project=${FIREBASE_PROJECT_ID:-demo-bosted}

# Configuration values end up in JSON and in nginx's configuration: refuse control characters
# (newlines included) up front, so a JSON string only needs backslashes and quotes escaped.
refuse_control_characters() {
  for value in "$@"; do
    if [ "$(printf '%s' "$value" | wc -l)" -ne 0 ] || printf '%s' "$value" | LC_ALL=C grep -q '[[:cntrl:]]'; then
      echo "web: refusing a configuration value with control characters: $value" >&2
      exit 1
    fi
  done
}
# Values written into nginx's configuration must not be able to end a directive or a quoted string.
refuse_nginx_syntax() {
  for value in "$@"; do
    case "$value" in
      *[\"\'\;\{\}\ \\]*)
        echo "web: refusing a value with quotes, ';', braces, spaces or backslashes: $value" >&2
        exit 1
        ;;
    esac
  done
}
json_string() {
  printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"
}
json_or_null() {
  if [ -n "$1" ]; then json_string "$1"; else printf 'null'; fi
}
origin() {
  case "$1" in
    http://* | https://*) printf '%s' "$1" ;;
    *) printf 'http://%s' "$1" ;;
  esac
}

auth=${WEB_AUTH_EMULATOR:-}
firestore=${WEB_FIRESTORE_EMULATOR:-}
storage=${WEB_STORAGE_EMULATOR:-}
api_key=${FIREBASE_API_KEY:-demo-api-key}
auth_domain=${FIREBASE_AUTH_DOMAIN:-$project.firebaseapp.com}
app_id=${FIREBASE_APP_ID:-demo-app}
bucket=${FIREBASE_STORAGE_BUCKET:-$project.appspot.com}
SITE=${NGINX_SITE:-app}
ORIGIN=
AUTH_UPSTREAM=${AUTH_UPSTREAM:-emulators:9099}
FIRESTORE_UPSTREAM=${FIRESTORE_UPSTREAM:-emulators:8080}
STORAGE_UPSTREAM=${STORAGE_UPSTREAM:-emulators:9199}
TLS_CERT=${TLS_CERT:-/tls/cert.pem}
TLS_KEY=${TLS_KEY:-/tls/key.pem}
if [ "$SITE" = pilot ]; then
  pilot_port=${PILOT_PORT:-8443}
  ORIGIN="https://${PILOT_HOST:-localhost}"
  if [ "$pilot_port" != 443 ]; then ORIGIN="$ORIGIN:$pilot_port"; fi
  # The SDKs reach Auth, Firestore and Storage on the origin itself, over TLS.
  auth=$ORIGIN
  firestore=$ORIGIN
  storage=$ORIGIN
elif [ "$SITE" != app ]; then
  echo "web: NGINX_SITE must be app or pilot, got $SITE" >&2
  exit 1
fi
refuse_control_characters "$project" "$api_key" "$auth_domain" "$app_id" "$bucket" "$auth" "$firestore" "$storage" \
  "$API_UPSTREAM" "$APP_PORT" "$ORIGIN" "$AUTH_UPSTREAM" "$FIRESTORE_UPSTREAM" "$STORAGE_UPSTREAM" "$TLS_CERT" "$TLS_KEY"
refuse_nginx_syntax "$auth" "$firestore" "$storage" "$API_UPSTREAM" "$APP_PORT" "$ORIGIN" "$AUTH_UPSTREAM" \
  "$FIRESTORE_UPSTREAM" "$STORAGE_UPSTREAM" "$TLS_CERT" "$TLS_KEY"

# The browser may connect to exactly the configured emulators, or to Firebase's hosts in production
# (the same rule as connectSources() in infra/stack/src/services/web.ts).
CSP_CONNECT_SRC=
for value in "$auth" "$firestore" "$storage"; do
  if [ -n "$value" ]; then CSP_CONNECT_SRC="${CSP_CONNECT_SRC:+$CSP_CONNECT_SRC }$(origin "$value")"; fi
done
if [ -z "$CSP_CONNECT_SRC" ]; then
  CSP_CONNECT_SRC='https://*.googleapis.com https://*.firebaseio.com https://firebasestorage.googleapis.com'
fi

# Workers keep the current user (render.mjs adds `user …;` only for root, whose workers would
# otherwise become `nobody`); the image runs as `nginx`, so nothing is needed here.
USER_DIRECTIVE=
if [ "$(id -u)" = 0 ]; then USER_DIRECTIVE="user $(id -un);"; fi

mkdir -p "$PREFIX"
# Inside the container nginx listens on every address; only the published port reaches it.
LISTEN=$APP_PORT
export PREFIX WEB_ROOT LISTEN APP_PORT API_UPSTREAM CSP_CONNECT_SRC USER_DIRECTIVE ORIGIN AUTH_UPSTREAM \
  FIRESTORE_UPSTREAM STORAGE_UPSTREAM TLS_CERT TLS_KEY
# Only our placeholders: nginx's own variables ($host, $uri …) must stay as they are.
placeholders='${LISTEN} ${APP_PORT} ${API_UPSTREAM} ${WEB_ROOT} ${CSP_CONNECT_SRC} ${PREFIX} ${USER_DIRECTIVE}'
placeholders="$placeholders"' ${ORIGIN} ${AUTH_UPSTREAM} ${FIRESTORE_UPSTREAM} ${STORAGE_UPSTREAM} ${TLS_CERT} ${TLS_KEY}'
if [ "$SITE" = pilot ]; then
  envsubst "$placeholders" <"$TEMPLATES/pilot.conf.template" >"$PREFIX/app.conf"
  cp "$TEMPLATES/proxy.conf" "$PREFIX/proxy.conf"
else
  envsubst "$placeholders" <"$TEMPLATES/app.conf.template" >"$PREFIX/app.conf"
fi
envsubst "$placeholders" <"$TEMPLATES/nginx.conf.template" >"$PREFIX/nginx.conf"

cat >"$PREFIX/config.json" <<EOF
{
  "firebase": {
    "apiKey": $(json_string "$api_key"),
    "authDomain": $(json_string "$auth_domain"),
    "projectId": $(json_string "$project"),
    "appId": $(json_string "$app_id"),
    "storageBucket": $(json_string "$bucket")
  },
  "emulators": {
    "auth": $(json_or_null "$auth"),
    "firestore": $(json_or_null "$firestore"),
    "storage": $(json_or_null "$storage")
  }
}
EOF

if [ "${1:-}" = --render-only ]; then
  echo "$PREFIX/nginx.conf"
  exit 0
fi

# Container logs: the access and error logs named in nginx.conf go to stdout and stderr.
ln -sf /dev/stdout "$PREFIX/access.log"
ln -sf /dev/stderr "$PREFIX/error.log"
if [ "$SITE" = pilot ]; then
  echo "web: pilot origin $ORIGIN (TLS on :$APP_PORT): app, /api → $API_UPSTREAM, Auth → $AUTH_UPSTREAM, Firestore → $FIRESTORE_UPSTREAM, Storage → $STORAGE_UPSTREAM"
else
  echo "web: serving $WEB_ROOT on :$APP_PORT, /api → $API_UPSTREAM, connect-src $CSP_CONNECT_SRC"
fi

# nginx resolves the api's name once, when it starts (and at each reload). When Compose recreates the
# api container (a new image, `up --force-recreate api`) its address may change and /api would
# answer 502 until web restarts. So, when the upstream is a name and getent is there (Debian; musl's
# on Alpine), nginx runs as a child and this shell asks it to reload (SIGHUP) whenever the name
# resolves to other addresses. NGINX_FOLLOW_UPSTREAM=false execs nginx as before.
upstream_host=${API_UPSTREAM%:*}
# The pilot also proxies the backend: its address is followed the same way.
followed=$upstream_host
if [ "$SITE" = pilot ]; then followed="$followed ${AUTH_UPSTREAM%:*} ${FIRESTORE_UPSTREAM%:*} ${STORAGE_UPSTREAM%:*}"; fi
addresses() {
  for name in $followed; do getent hosts "$name" 2>/dev/null | awk '{print $1}'; done | sort -u | tr '\n' ' ' | sed 's/ $//'
}
case "$upstream_host" in
  *[!0-9.]*) is_name=true ;;
  *) is_name=false ;;
esac
if [ "${NGINX_FOLLOW_UPSTREAM:-true}" != true ] || [ "$is_name" = false ] || ! command -v getent >/dev/null 2>&1; then
  exec nginx -e stderr -p "$PREFIX" -c "$PREFIX/nginx.conf"
fi
nginx -e stderr -p "$PREFIX" -c "$PREFIX/nginx.conf" &
nginx_pid=$!
# Stop signals go to nginx (TERM: fast, QUIT: graceful, the image's STOPSIGNAL); the loop ends with it.
trap 'kill -TERM "$nginx_pid" 2>/dev/null' TERM INT
trap 'kill -QUIT "$nginx_pid" 2>/dev/null' QUIT
last=$(addresses)
while kill -0 "$nginx_pid" 2>/dev/null; do
  sleep "${NGINX_FOLLOW_INTERVAL:-3}" &
  wait $! || true
  now=$(addresses)
  if [ -n "$now" ] && [ "$now" != "$last" ]; then
    echo "web: $upstream_host now resolves to $now (was ${last:-nothing}); reloading nginx"
    kill -HUP "$nginx_pid" 2>/dev/null || true
    last=$now
  fi
done
status=0
wait "$nginx_pid" || status=$?
exit "$status"

#!/usr/bin/env bash
# What the static checks of deploy/ need (test/deploy/manifests.test.ts), at pinned versions, into .tools/:
# helm and kubeconform built from the Go module proxy; the Kubernetes JSON schemas (from the kubernetes-validate
# wheel) and the Compose specification's schema (from the docker-compose wheel), both from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
HELM_VERSION=v3.22.0
KUBECONFORM_VERSION=v0.7.0
KUBERNETES_VALIDATE_VERSION=1.37.0
KUBERNETES_VERSION=1.33.0
COMPOSE_WHEEL_VERSION=1.29.2
TOOLS=$PWD/.tools
mkdir -p "$TOOLS/bin" "$TOOLS/schemas"

installed () { [ -x "$TOOLS/bin/$1" ] && [ "$(cat "$TOOLS/bin/$1.version" 2>/dev/null)" = "$2" ]; }
if ! installed helm "$HELM_VERSION"; then
  GOBIN="$TOOLS/bin" go install "helm.sh/helm/v3/cmd/helm@$HELM_VERSION" && echo "$HELM_VERSION" > "$TOOLS/bin/helm.version"
fi
if ! installed kubeconform "$KUBECONFORM_VERSION"; then
  GOBIN="$TOOLS/bin" go install "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION" && echo "$KUBECONFORM_VERSION" > "$TOOLS/bin/kubeconform.version"
fi

K8S="$TOOLS/schemas/kubernetes-$KUBERNETES_VERSION"
if [ ! -f "$K8S/.done" ]; then
  WHEELS=$(mktemp -d)
  pip download --quiet --no-deps -d "$WHEELS" "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION"
  python3 deploy/standalone-schemas.py "$WHEELS"/kubernetes_validate-*.whl "v$KUBERNETES_VERSION-local-strict" "$K8S"
  touch "$K8S/.done"
fi
if [ ! -f "$TOOLS/schemas/compose_spec.json" ]; then
  WHEELS=$(mktemp -d)
  pip download --quiet --no-deps -d "$WHEELS" "docker-compose==$COMPOSE_WHEEL_VERSION"
  python3 -c "import sys, zipfile; open(sys.argv[2], 'wb').write(zipfile.ZipFile(sys.argv[1]).read('compose/config/compose_spec.json'))" "$WHEELS"/docker_compose-*.whl "$TOOLS/schemas/compose_spec.json"
fi
echo "deploy tools: helm $HELM_VERSION, kubeconform $KUBECONFORM_VERSION, Kubernetes $KUBERNETES_VERSION schemas, Compose schema"

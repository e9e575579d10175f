{{/*
The chart's helpers. Every StatefulSet, Service, PodDisruptionBudget and
NetworkPolicy is rendered from the list "banca.components" makes: with Kafka
one component per enabled service, with the embedded log one ("server")
that runs them all.
*/}}

{{- define "banca.labels" -}}
app.kubernetes.io/name: banca
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "banca.selector" -}}
app.kubernetes.io/name: banca
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .c.name }}
{{- end -}}

{{- define "banca.kafka" -}}
{{- if eq .Values.log.backend "kafka" }}true{{ end -}}
{{- end -}}

{{/* The components to deploy, as YAML {items: [...]}. */}}
{{- define "banca.components" -}}
{{- $items := list -}}
{{- if include "banca.kafka" . -}}
{{- range $name := list "wallet" "table" "tournament" "reporting" -}}
{{- $v := index $.Values.services $name -}}
{{- if $v.enabled -}}
{{- $items = append $items (dict "name" $name "services" $name "replicas" $v.replicas "grpcPort" $v.grpcPort "metricsPort" $v.metricsPort "storage" $v.storage "resources" $v.resources) -}}
{{- end -}}
{{- end -}}
{{- else -}}
{{- $names := list -}}
{{- range $name := list "wallet" "table" "tournament" "reporting" -}}
{{- if (index $.Values.services $name).enabled -}}
{{- $names = append $names $name -}}
{{- end -}}
{{- end -}}
{{- $e := .Values.embedded -}}
{{- if $names -}}
{{- $items = append $items (dict "name" "server" "services" (join "," $names) "replicas" 1 "grpcPort" $e.grpcPort "metricsPort" $e.metricsPort "storage" $e.storage "resources" $e.resources) -}}
{{- end -}}
{{- end -}}
{{- toYaml (dict "items" $items) -}}
{{- end -}}

{{- define "banca.hasService" -}}
{{- if has .name (splitList "," .c.services) }}true{{ end -}}
{{- end -}}

{{/* Tables and tournaments seal decks. */}}
{{- define "banca.sealsDecks" -}}
{{- if or (include "banca.hasService" (dict "c" .c "name" "table")) (include "banca.hasService" (dict "c" .c "name" "tournament")) }}true{{ end -}}
{{- end -}}

{{/* The gRPC health name the readiness probe asks for ("" = the server). */}}
{{- define "banca.healthName" -}}
{{- $names := dict "wallet" "banca.v1.WalletService" "table" "banca.v1.TableService" "tournament" "banca.v1.TournamentService" "reporting" "banca.v1.ReportingService" -}}
{{- get $names .services -}}
{{- end -}}

{{- define "banca.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* Secrets: the chart's own unless an existing one is named. */}}
{{- define "banca.verifyKeysSecret" -}}
{{- .Values.auth.verifyKeys.existingSecret | default (ternary (printf "%s-banca-verify-keys" .Release.Name) "" (ne .Values.auth.verifyKeys.keys "")) -}}
{{- end -}}
{{- define "banca.tokenKeySecret" -}}
{{- .Values.auth.tokenKey.existingSecret | default (ternary (printf "%s-banca-token-key" .Release.Name) "" (ne .Values.auth.tokenKey.value "")) -}}
{{- end -}}
{{- define "banca.deckKeySecret" -}}
{{- .Values.deckKey.existingSecret | default (ternary (printf "%s-banca-deck-key" .Release.Name) "" (ne .Values.deckKey.keys "")) -}}
{{- end -}}
{{- define "banca.kafkaSecret" -}}
{{- .Values.log.kafka.credentials.existingSecret | default (ternary (printf "%s-banca-kafka" .Release.Name) "" (ne .Values.log.kafka.credentials.properties "")) -}}
{{- end -}}

{{/* --log: each pod's own transactional id is its pod name. */}}
{{- define "banca.logSpec" -}}
{{- if include "banca.kafka" . -}}
{{- $k := .Values.log.kafka -}}
{{- $opts := list "transactional_id=$(POD_NAME)" -}}
{{- range $key := keys $k.options | sortAlpha -}}
{{- $opts = append $opts (printf "%s=%v" $key (index $k.options $key)) -}}
{{- end -}}
kafka://{{ required "log.kafka.bootstrap names the Kafka cluster (host:port[,host:port])" $k.bootstrap }}?{{ join "&" $opts }}
{{- else -}}
embedded
{{- end -}}
{{- end -}}

{{/*
The table processes' own flags. On Kafka every table pod is a member of
one table group (docs/architecture.md, "Several table processes"): each
decides for the tables of its partitions and names itself, by its stable
headless-Service name, as their owner (a call to another pod is refused
with the trailing metadata banca-owner: that address).
*/}}
{{- define "banca.tableArgs" -}}
{{- $root := .root -}}
{{- if include "banca.kafka" $root }}
- --table-group={{ $root.Release.Name }}-table
- --advertise-address=$(POD_NAME).{{ $root.Release.Name }}-table-headless.$(POD_NAMESPACE).svc:{{ $root.Values.services.table.grpcPort }}
{{- end }}
{{- end -}}

{{/* The wallet's own flags. */}}
{{- define "banca.walletArgs" -}}
{{- $v := .root.Values.services.wallet -}}
- --currency={{ $v.currency }}
{{- if include "banca.kafka" .root }}
- --wallet-group={{ .root.Release.Name }}-wallet
- --wallet-session-timeout-ms={{ $v.sessionTimeoutMs }}
{{- end }}
{{- end -}}

{{/* The container's args (the image's entrypoint is `banca`). */}}
{{- define "banca.args" -}}
{{- $root := .root -}}
{{- $c := .c -}}
- serve
- --services={{ $c.services }}
- --data-dir=/data
- --log={{ include "banca.logSpec" $root }}
{{- with $root.Values.grpcAddress }}
- --grpc-address={{ . }}
{{- end }}
- --grpc-port={{ $c.grpcPort }}
- --metrics-port={{ $c.metricsPort }}
{{- with $root.Values.metrics.address }}
- --metrics-address={{ . }}
{{- end }}
- --partitions={{ $root.Values.partitions }}
{{- if include "banca.verifyKeysSecret" $root }}
- --token-verify-key-file=/etc/banca/keys/{{ $root.Values.auth.verifyKeys.existingSecretKey }}
{{- end }}
{{- if and (include "banca.sealsDecks" .) (include "banca.deckKeySecret" $root) }}
- --deck-key-file=/etc/banca/deck/{{ $root.Values.deckKey.existingSecretKey }}
{{- end }}
{{- if $root.Values.tls.enabled }}
- --tls-cert-file=/etc/banca/tls/tls.crt
- --tls-key-file=/etc/banca/tls/tls.key
{{- if $root.Values.tls.clientCA }}
- --tls-client-ca-file=/etc/banca/tls/ca.crt
{{- end }}
{{- else }}
- --plaintext
{{- end }}
{{- if include "banca.hasService" (dict "c" $c "name" "wallet") }}
{{ include "banca.walletArgs" . }}
{{- end }}
{{- if include "banca.hasService" (dict "c" $c "name" "table") }}
{{- with include "banca.tableArgs" . }}
{{ . }}
{{- end }}
{{- end }}
{{- end -}}

{{- define "banca.env" -}}
- name: POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: POD_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
- name: TMPDIR
  value: /tmp
{{- with include "banca.tokenKeySecret" .root }}
- name: BANCA_TOKEN_KEY
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.root.Values.auth.tokenKey.existingSecretKey }}
{{- end }}
{{- if include "banca.kafka" .root }}
{{- with include "banca.kafkaSecret" .root }}
- name: BANCA_KAFKA_PROPERTIES
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.root.Values.log.kafka.credentials.existingSecretKey }}
{{- end }}
{{- end }}
{{- end -}}

{{/* A probe's action: gRPC, or TCP when the port speaks TLS. */}}
{{- define "banca.probeAction" -}}
{{- if .root.Values.tls.enabled -}}
tcpSocket:
  port: grpc
{{- else -}}
grpc:
  port: {{ .c.grpcPort }}
{{- with .service }}
  service: {{ . }}
{{- end }}
{{- end -}}
{{- end -}}

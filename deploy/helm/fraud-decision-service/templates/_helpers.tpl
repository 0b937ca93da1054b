{{- define "fds.name" -}}{{ .Release.Name }}{{- end -}}

{{- define "fds.labels" -}}
app.kubernetes.io/name: fraud-decision-service
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Environment shared by the API and every topology. */}}
{{- define "fds.env" -}}
- name: TRANSPORT
  value: kafka
- name: KAFKA_BROKERS
  value: {{ .Values.kafka.brokers | quote }}
- name: TOPIC_PREFIX
  value: {{ .Values.kafka.topicPrefix | quote }}
- name: DEFAULT_TENANT_ID
  value: {{ .Values.defaultTenantId | quote }}
- name: CELLS
  value: {{ .Values.api.cells | quote }}
- name: DATA_DIR
  value: /data
- name: METRICS_PORT
  value: "9464"
{{- if .Values.metricsToken }}
- name: METRICS_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ include "fds.name" . }}-metrics
      key: token
{{- end }}
{{- if .Values.otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ .Values.otlpEndpoint | quote }}
{{- end }}
{{- range $k, $v := .Values.env }}
- name: {{ $k }}
  value: {{ $v | quote }}
{{- end }}
{{- end -}}

{{- define "banca.labels" -}}
app.kubernetes.io/name: banca
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}

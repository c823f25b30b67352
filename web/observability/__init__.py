"""What the process tells its operators: log lines, metrics, traces, request ids."""

"""Sensors: hourly event totals on the sensor document (`sensors`), pages of sensors ordered
and filtered (`sensor_pages`), and the 24-hour window both keep (`sensor_window`)."""

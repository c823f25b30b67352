"""Time series: rollups of observations (`series`), the catalogue of measurements and their
field names (`measurements`) and of tag values (`tag_values`); reading a range of rollups;
the demo's series."""

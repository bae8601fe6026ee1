"""Charts drawn on the server as inline SVG: no JavaScript, no library, nothing fetched.

Every chart is readable without colour: series differ by dash pattern and marker shape as well as colour, the
axes carry visible labels, values are written next to the points and bars, and the same numbers follow the
picture as a table (visually hidden when the picture already writes every value, behind a "Show the values"
disclosure when it does not). The SVG has role="img" with a <title> and a <desc> summing it up. Every label is
escaped: player and hand names are user input. The picture scales to its container (viewBox, width 100%).

Colours are the site's (static/css/phm.css): each series is drawn in `currentColor` inside an element of class
`phm-series-N`, bars have class `phm-chart-bar`, so the palette lives in the style sheet with the rest of the
site's colours, and no style attribute is needed (the Content-Security-Policy refuses those).

The modules: scale (numbers and axes), marks (the series' colours, dashes and markers), frame (the accessible
<svg>, the values' table, the figure), line (line_chart), bar (bar_chart). Import each from its module.
"""

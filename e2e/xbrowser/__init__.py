# SPDX-License-Identifier: GPL-3.0-or-later
"""Cross-browser end-to-end flows (Firefox ESR over WebDriver BiDi, WebKitGTK over Selenium)."""

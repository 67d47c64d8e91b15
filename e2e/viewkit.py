# SPDX-License-Identifier: GPL-3.0-or-later
"""Helpers of the browser tests for the page's views and its settings dialog:
a hook inside a view works once that view is shown, a hook in
the settings dialog once the dialog is open."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Page, expect


def open_view(page: Page, name: str) -> None:
    """Show a view by its tab (as a user would), unless it is shown."""
    if page.evaluate("() => document.documentElement.dataset.view") != name:
        page.locator(f"[data-view-tab={name}]").click()
    expect(page.locator("html")).to_have_attribute("data-view", name)


@contextmanager
def settings(page: Page) -> Iterator[None]:
    """The settings dialog open for the block (Play shown first), closed after."""
    open_view(page, "play")
    dialog = page.get_by_test_id("settings-dialog")
    if not dialog.is_visible():
        page.get_by_test_id("settings").click()
    expect(dialog).to_be_visible()
    try:
        yield
    finally:
        if dialog.is_visible():
            page.get_by_test_id("settings-close").click()
        expect(dialog).to_be_hidden()


def choose(page: Page, testid: str, value: str) -> None:
    """Pick an option of a select in the settings dialog."""
    with settings(page):
        page.get_by_test_id(testid).select_option(value)


def type_time_control(page: Page, text: str) -> None:
    """Type a time control in the settings and apply it (Enter)."""
    with settings(page):
        box = page.get_by_test_id("time-control")
        box.fill(text)
        box.press("Enter")

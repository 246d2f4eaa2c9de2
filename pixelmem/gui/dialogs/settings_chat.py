"""The settings dialog's Chat page: provider, server, a model picked from the server's list,
the token budget, and a test that asks the model for one token.

Listing models and the test both talk to the server, so both run on a pool worker; their
results name the settings exactly as they would be saved (the page builds a trial
``ChatSettings`` through ``Settings.set_key``, the same rules as the CLI).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from pixelmem.core.errors import SettingsError
from pixelmem.core.providers.chat import ChatCheck, create_chat_client
from pixelmem.core.settings import ChatSettings, Settings
from pixelmem.gui.session import describe_error
from pixelmem.gui.workers import run_in_pool


class ChatSettingsPage(QWidget):
    """Edits a copy of the chat settings; :meth:`values` gives them as ``set_key`` texts."""

    def __init__(self, chat: ChatSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.provider = QComboBox()
        for label, data in [
            (self.tr("None"), ""),
            ("Ollama", "ollama"),
            (self.tr("OpenAI-compatible API"), "openai"),
        ]:
            self.provider.addItem(label, data)
        self.provider.setCurrentIndex(max(0, self.provider.findData(chat.provider)))
        self.url = QLineEdit(chat.base_url)
        self.url.setPlaceholderText("http://localhost:11434")
        self.model = QComboBox()
        self.model.setEditable(True)  # a name the server does not list can still be typed
        self.model.setEditText(chat.model)
        model_line = self.model.lineEdit()
        if model_line is not None:  # editable: always
            model_line.setPlaceholderText("llama3.2")
        self.refresh_button = QPushButton(self.tr("List models"))
        self.refresh_button.clicked.connect(self.list_models)
        self.key = QLineEdit(chat.api_key)
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.context_spin = _spin(512, 2_000_000, chat.context_window, 1024)
        self.max_tokens_spin = _spin(16, 200_000, chat.max_tokens, 256)
        self.timeout_spin = QDoubleSpinBox()
        self.timeout_spin.setRange(1.0, 3600.0)
        self.timeout_spin.setValue(chat.timeout)
        self.timeout_spin.setSuffix(" s")
        self.test_button = QPushButton(self.tr("Test chat model"))
        self.test_button.clicked.connect(self.test)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._base = chat
        self._layout()

    def _layout(self) -> None:
        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(self.refresh_button)
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self.tr("Provider"), self.provider)
        form.addRow(self.tr("Base URL"), self.url)
        form.addRow(self.tr("Model"), model_row)
        form.addRow(self.tr("API key"), self.key)
        form.addRow(self.tr("Context window (tokens)"), self.context_spin)
        form.addRow(self.tr("Longest answer (tokens)"), self.max_tokens_spin)
        form.addRow(self.tr("Timeout"), self.timeout_spin)
        form.addRow("", self.test_button)
        form.addRow("", self.status)

    def values(self) -> dict[str, str]:
        """The page's fields as ``set_key`` texts."""
        return {
            "chat.provider": self.provider.currentData(),
            "chat.base_url": self.url.text(),
            "chat.model": self.model.currentText().strip(),
            "chat.api_key": self.key.text(),
            "chat.context_window": str(self.context_spin.value()),
            "chat.max_tokens": str(self.max_tokens_spin.value()),
            "chat.timeout": str(self.timeout_spin.value()),
        }

    def trial(self) -> ChatSettings:
        """The settings as they would be saved; SettingsError names a field that is wrong."""
        trial = Settings()
        trial.chat.context_budget = self._base.context_budget
        for key, text in self.values().items():
            trial.set_key(key, text)
        return trial.chat

    # -- talking to the server ---------------------------------------------------------------

    def list_models(self) -> None:
        """Fill the model list from the server (``/api/tags`` or ``/v1/models``)."""
        chat = self._checked()
        if chat is None:
            return
        self.refresh_button.setEnabled(False)
        self.status.setText(self.tr("Asking the server for its models…"))

        def job() -> list[str]:
            client = create_chat_client(chat)
            try:
                return client.list_models()
            finally:
                client.close()

        run_in_pool(job, self._listed, self._failed, context=self)

    def _listed(self, models: list[str]) -> None:
        self.refresh_button.setEnabled(True)
        current = self.model.currentText()
        self.model.clear()
        self.model.addItems(models)
        self.model.setEditText(current)
        if not models:
            self.status.setText(self.tr("The server lists no models."))
        elif current and current.removesuffix(":latest") not in models:
            text = self.tr("✓ %n models; “{model}” is not among them.", "", len(models))
            self.status.setText(text.format(model=current))
        else:
            self.status.setText(self.tr("✓ %n models.", "", len(models)))

    def test(self) -> None:
        """A one-token completion with the page's settings."""
        chat = self._checked()
        if chat is None:
            return
        self.test_button.setEnabled(False)
        self.status.setText(self.tr("Testing…"))

        def job() -> ChatCheck:
            client = create_chat_client(chat)
            try:
                return client.check()
            finally:
                client.close()

        run_in_pool(job, self._tested, self._failed, context=self)

    def _tested(self, check: ChatCheck) -> None:
        self.test_button.setEnabled(True)
        if check.warnings:
            self.status.setText("⚠ " + " ".join(check.warnings))
            return
        text = self.tr("✓ {model} answered in {ms} ms")
        self.status.setText(text.format(model=check.answered_model, ms=round(check.seconds * 1000)))

    def _failed(self, exc: BaseException) -> None:
        self.test_button.setEnabled(True)
        self.refresh_button.setEnabled(True)
        self.status.setText("✗ " + describe_error(exc))

    def _checked(self) -> ChatSettings | None:
        try:
            chat = self.trial()
        except SettingsError as exc:
            self.status.setText("✗ " + describe_error(exc))
            return None
        if not chat.provider:
            self.status.setText(self.tr("✗ Choose a provider first."))
            return None
        return chat


def _spin(low: int, high: int, value: int, step: int) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setSingleStep(step)
    spin.setGroupSeparatorShown(True)
    spin.setValue(value)
    return spin

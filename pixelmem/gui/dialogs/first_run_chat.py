"""The first-run window's optional chat step: find a running Ollama, or ask for an
OpenAI-compatible server, list its models, pick one or skip.

Every question to a server runs on a pool worker (:mod:`pixelmem.core.providers.chat_setup`);
the step only shows what came back. Nothing is saved here: the dialog hands the choice to
``run_app``, which saves it with the other settings.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.errors import PixelmemError
from pixelmem.core.providers.chat_setup import ChatChoice, ChatServer, find_ollama, list_models
from pixelmem.core.providers.servers import OLLAMA_BASE_URL
from pixelmem.gui.session import describe_error
from pixelmem.gui.workers import run_in_pool


class ChatStep(QWidget):
    """Emits ``finished`` with a :class:`ChatChoice`, or None when the person skips."""

    finished = Signal(object)

    def __init__(self, ollama_url: str = OLLAMA_BASE_URL, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("firstRunChatStep")
        self.ollama_url = ollama_url.rstrip("/")
        self._asked: ChatServer | None = None  # the server the model list comes from
        self._request = 0  # answers to older requests (fields changed since) are dropped
        self.ollama_found: bool | None = None  # None until the probe answers
        self._build()

    def _build(self) -> None:
        heading = QLabel(self.tr("<b>Chat with your memories</b> (optional)"))
        intro = QLabel(
            self.tr(
                "pixelmem can answer questions from your memories with a chat model that you "
                "run or choose. Nothing is sent anywhere until you pick one; you can change "
                "this later in Settings."
            )
        )
        intro.setWordWrap(True)
        host = self.ollama_url.removeprefix("http://").removeprefix("https://")
        self.ollama_radio = QRadioButton(
            self.tr("Ollama on this computer ({host})").format(host=host)
        )
        self.openai_radio = QRadioButton(self.tr("An OpenAI-compatible server"))
        self.kind = QButtonGroup(self)
        self.kind.addButton(self.ollama_radio)
        self.kind.addButton(self.openai_radio)
        self.url = QLineEdit()
        self.url.setPlaceholderText("http://localhost:8080/v1")
        self.key = QLineEdit()
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setPlaceholderText(self.tr("optional"))
        self.list_button = QPushButton(self.tr("List models"))
        self.model = QComboBox()
        self.model.setObjectName("firstRunChatModel")
        self.model.setMinimumContentsLength(18)
        self.status = QLabel()
        self.status.setObjectName("firstRunChatStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.skip_button = QPushButton(self.tr("Skip"))
        self.use_button = QPushButton(self.tr("Use this model"))
        self.use_button.setDefault(True)
        self._lay_out(heading, intro)
        self.ollama_radio.toggled.connect(self._kind_changed)
        self.list_button.clicked.connect(self.list_server_models)
        self.url.returnPressed.connect(self.list_server_models)
        for field in (self.url, self.key):  # the list no longer belongs to the fields
            field.textEdited.connect(lambda _: self._next_request(None))
        self.skip_button.clicked.connect(lambda: self.finished.emit(None))
        self.use_button.clicked.connect(self._use)
        self.model.currentTextChanged.connect(lambda _: self._update_buttons())
        self.ollama_radio.setChecked(True)

    def _lay_out(self, heading: QLabel, intro: QLabel) -> None:
        server = QFormLayout()
        server.setContentsMargins(24, 0, 0, 0)  # under the radio button it belongs to
        server.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        url_row = QHBoxLayout()
        url_row.addWidget(self.url, 1)
        url_row.addWidget(self.list_button)
        server.addRow(self.tr("Base URL"), url_row)
        server.addRow(self.tr("API key"), self.key)
        model_row = QFormLayout()
        model_row.addRow(self.tr("Model"), self.model)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.skip_button)
        buttons.addWidget(self.use_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(heading)
        layout.addWidget(intro)
        layout.addSpacing(6)
        layout.addWidget(self.ollama_radio)
        layout.addWidget(self.openai_radio)
        layout.addLayout(server)
        layout.addLayout(model_row)
        layout.addWidget(self.status)
        layout.addStretch(1)
        layout.addLayout(buttons)

    # -- asking servers ----------------------------------------------------------------------

    def start(self) -> None:
        """Look for Ollama (on a worker, a couple of seconds at most)."""
        self.status.setText(self.tr("Looking for Ollama on {url}…").format(url=self.ollama_url))
        server = ChatServer("ollama", self.ollama_url)
        request = self._next_request(server)
        url = self.ollama_url
        run_in_pool(
            lambda: find_ollama(url),
            lambda models: self._probed(request, models),
            lambda exc: self._failed(request, exc),
            context=self,
        )

    def list_server_models(self) -> None:
        """List the models of the server the fields name (Ollama, or the URL and key)."""
        server = self.server()
        if server.provider == "openai" and not server.base_url:
            self.status.setText(self.tr("✗ Enter the server's base URL first."))
            self.url.setFocus()
            return
        self.status.setText(self.tr("Asking the server for its models…"))
        request = self._next_request(server)
        run_in_pool(
            lambda: list_models(server),
            lambda models: self._listed(request, models),
            lambda exc: self._failed(request, exc),
            context=self,
        )

    def server(self) -> ChatServer:
        if self.ollama_radio.isChecked():
            return ChatServer("ollama", self.ollama_url)
        return ChatServer("openai", self.url.text().strip(), self.key.text().strip())

    def _next_request(self, server: ChatServer | None) -> int:
        """A new request to ``server`` (None: none, the fields changed); the model list is
        emptied until it answers."""
        self._request += 1
        self._asked = server
        self.model.clear()
        self._update_buttons()
        return self._request

    def _probed(self, request: int, models: list[str] | None) -> None:
        if request != self._request:
            return
        self.ollama_found = models is not None
        if models is None:
            self.status.setText(
                self.tr(
                    "No Ollama is running on {url}. Name an OpenAI-compatible server (a "
                    "llama.cpp or LM Studio server, or a hosted API), or skip this step."
                ).format(url=self.ollama_url)
            )
            self.openai_radio.setChecked(True)
            self.url.setFocus()
            return
        self._listed(request, models)

    def _listed(self, request: int, models: list[str]) -> None:
        if request != self._request:
            return
        self.model.addItems(models)
        if not models:
            hint = "ollama pull llama3.2" if self.server().provider == "ollama" else ""
            text = self.tr("The server answered but lists no models.")
            if hint:
                text += " " + self.tr("Pull one with `{command}`, then list again.").format(
                    command=hint
                )
            self.status.setText(text)
        else:
            where = self.server().base_url
            text = self.tr("✓ {n} models on {where}. Pick one, or skip.")
            self.status.setText(text.format(n=len(models), where=where))
            self.model.setFocus()
        self._update_buttons()

    def _failed(self, request: int, exc: BaseException) -> None:
        if request != self._request:
            return
        if isinstance(exc, PixelmemError):
            self.status.setText("✗ " + describe_error(exc))
        else:
            self.status.setText("✗ " + str(exc))
        self._update_buttons()

    # -- choosing ----------------------------------------------------------------------------

    def _kind_changed(self, ollama: bool) -> None:
        for widget in (self.url, self.key):
            widget.setEnabled(not ollama)
        if ollama and self.ollama_found is not None:
            self.list_server_models()  # Ollama's models again
        elif not ollama:
            self._next_request(None)  # Ollama's models are not this server's

    def _update_buttons(self) -> None:
        self.use_button.setEnabled(bool(self.model.currentText()) and self._asked is not None)

    def _use(self) -> None:
        model = self.model.currentText()
        if model and self._asked is not None:
            self.finished.emit(ChatChoice(self._asked, model))

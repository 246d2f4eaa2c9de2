"""Settings: vault, language, search, chunking, embedding/chat/reranker providers.

The dialog edits a copy; :meth:`SettingsDialog.result_settings` validates every field through
the core's own rules (``Settings.set_key``), so the GUI and the CLI accept the same values.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from pixelmem.core.errors import SettingsError
from pixelmem.core.providers.embeddings.factory import create_embedder, test_connection
from pixelmem.core.search_mode import SearchMode
from pixelmem.core.settings import ChunkSettings, EmbeddingSettings, Settings
from pixelmem.gui.dialogs.settings_chat import ChatSettingsPage
from pixelmem.gui.session import describe_error
from pixelmem.gui.workers import run_in_pool

REMOTE_EMBEDDERS = ("ollama", "openai")


def _line(text: str = "", placeholder: str = "", secret: bool = False) -> QLineEdit:
    edit = QLineEdit(text)
    edit.setPlaceholderText(placeholder)
    if secret:
        edit.setEchoMode(QLineEdit.EchoMode.Password)
        toggle = edit.addAction(
            edit.style().standardIcon(edit.style().StandardPixmap.SP_FileDialogContentsView),
            QLineEdit.ActionPosition.TrailingPosition,
        )
        toggle.setCheckable(True)
        toggle.toggled.connect(
            lambda on: edit.setEchoMode(
                QLineEdit.EchoMode.Normal if on else QLineEdit.EchoMode.Password
            )
        )
    return edit


def _combo(items: list[tuple[str, str]], current: str) -> QComboBox:
    combo = QComboBox()
    for label, data in items:
        combo.addItem(label, data)
    combo.setCurrentIndex(max(0, combo.findData(current)))
    return combo


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, vault: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.setWindowTitle(self.tr("Settings"))
        self.setMinimumWidth(560)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._general_tab(vault), self.tr("General"))
        self.tabs.addTab(self._search_tab(), self.tr("Search"))
        self.tabs.addTab(self._embedding_tab(), self.tr("Embeddings"))
        self.tabs.addTab(self._chat_tab(), self.tr("Chat"))
        self.tabs.addTab(self._rerank_tab(), self.tr("Reranker"))
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setObjectName("settingsError")
        self.error_label.hide()
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.error_label)
        layout.addWidget(buttons)
        self._result: Settings | None = None

    # -- tabs ------------------------------------------------------------------------------

    def _general_tab(self, vault: str) -> QWidget:
        self.vault_edit = _line(vault)
        browse = QPushButton(self.tr("Browse…"))
        browse.clicked.connect(self._browse_vault)
        row = QHBoxLayout()
        row.addWidget(self.vault_edit, 1)
        row.addWidget(browse)
        languages = [(self.tr("System default"), ""), ("English", "en"), ("简体中文", "zh_CN")]
        self.language_combo = _combo(languages, self.settings.language)
        form = QFormLayout()
        form.addRow(self.tr("Vault folder"), row)
        form.addRow(self.tr("Language"), self.language_combo)
        form.addRow("", _note(self.tr("A new language applies to the whole window at once.")))
        return _page(form)

    def _search_tab(self) -> QWidget:
        s = self.settings
        labels = {
            SearchMode.HYBRID: self.tr("Hybrid"),
            SearchMode.SEMANTIC: self.tr("Semantic"),
            SearchMode.KEYWORD: self.tr("Keyword"),
            SearchMode.EXACT: self.tr("Exact phrase"),
        }
        modes = [(labels[mode], mode.value) for mode in SearchMode]
        self.mode_combo = _combo(modes, s.search.mode)
        self.top_k_spin = QSpinBox(minimum=1, maximum=100, value=s.search.top_k)
        self.threshold_spin = QDoubleSpinBox(minimum=0.0, maximum=1.0, singleStep=0.05, decimals=2)
        self.threshold_spin.setValue(s.search.min_relevance)
        self.chunk_size_spin = QSpinBox(
            minimum=100, maximum=20_000, singleStep=50, value=s.chunk.size
        )
        self.chunk_overlap_spin = QSpinBox(
            minimum=0, maximum=10_000, singleStep=10, value=s.chunk.overlap
        )
        form = QFormLayout()
        form.addRow(self.tr("Default mode"), self.mode_combo)
        form.addRow(self.tr("Results (top-k)"), self.top_k_spin)
        form.addRow(self.tr("Minimum relevance"), self.threshold_spin)
        form.addRow(self.tr("Chunk size (characters)"), self.chunk_size_spin)
        form.addRow(self.tr("Chunk overlap"), self.chunk_overlap_spin)
        form.addRow("", _note(self.tr("Changing the chunking re-indexes the vault.")))
        return _page(form)

    def _embedding_tab(self) -> QWidget:
        e = self.settings.embedding
        providers = [
            (self.tr("Built-in, chosen for this vault (recommended)"), "auto"),
            (self.tr("Built-in (offline, English)"), "local"),
            (self.tr("Built-in multilingual (Chinese and 100 languages)"), "local-multilingual"),
            ("Ollama", "ollama"),
            (self.tr("OpenAI-compatible API"), "openai"),
        ]
        self.embed_provider = _combo(providers, e.provider)
        self.embed_url = _line(e.base_url, "http://localhost:11434")
        self.embed_model = _line(e.model, "nomic-embed-text")
        self.embed_key = _line(e.api_key, self.tr("not needed for local servers"), secret=True)
        self.test_button = QPushButton(self.tr("Test connection"))
        self.test_button.clicked.connect(self._test_connection)
        self.test_label = QLabel()
        self.test_label.setWordWrap(True)
        self.test_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.embed_provider.currentIndexChanged.connect(self._provider_changed)
        form = QFormLayout()
        form.addRow(self.tr("Provider"), self.embed_provider)
        form.addRow(self.tr("Base URL"), self.embed_url)
        form.addRow(self.tr("Model"), self.embed_model)
        form.addRow(self.tr("API key"), self.embed_key)
        form.addRow("", self.test_button)
        form.addRow("", self.test_label)
        form.addRow("", _note(self.tr("Switching the model re-embeds every memory.")))
        self._provider_changed()
        return _page(form)

    def _chat_tab(self) -> QWidget:
        self.chat_page = ChatSettingsPage(self.settings.chat)
        return self.chat_page

    def _rerank_tab(self) -> QWidget:
        r = self.settings.rerank
        self.rerank_url = _line(r.url, "http://localhost:8080/rerank")
        self.rerank_model = _line(r.model, "jina-reranker-v2-base-multilingual")
        self.rerank_key = _line(r.api_key, "", secret=True)
        form = QFormLayout()
        form.addRow(self.tr("Endpoint URL"), self.rerank_url)
        form.addRow(self.tr("Model"), self.rerank_model)
        form.addRow(self.tr("API key"), self.rerank_key)
        form.addRow("", _note(self.tr("Leave the URL empty to search without a reranker.")))
        return _page(form)

    # -- behaviour -------------------------------------------------------------------------

    def _browse_vault(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("Choose the vault folder"), self.vault_edit.text()
        )
        if folder:
            self.vault_edit.setText(folder)

    def _provider_changed(self) -> None:
        remote = self.embed_provider.currentData() in REMOTE_EMBEDDERS
        for widget in (self.embed_url, self.embed_model, self.embed_key):
            widget.setEnabled(remote)

    def _embedding_settings(self) -> EmbeddingSettings:
        trial = Settings()
        trial.embedding.batch_size = self.settings.embedding.batch_size
        trial.set_key("embedding.provider", self.embed_provider.currentData())
        trial.set_key("embedding.base_url", self.embed_url.text())
        trial.set_key("embedding.model", self.embed_model.text())
        trial.set_key("embedding.api_key", self.embed_key.text())
        return trial.embedding

    def _test_connection(self) -> None:
        try:
            embedding = self._embedding_settings()
        except SettingsError as exc:
            self.test_label.setText("✗ " + describe_error(exc))
            return
        self.test_button.setEnabled(False)
        self.test_label.setText(self.tr("Testing…"))
        run_in_pool(
            lambda: test_connection(create_embedder(embedding)),
            self._tested,
            self._test_failed,
            context=self,
        )

    def _tested(self, result: tuple[int, float]) -> None:
        dim, seconds = result
        self.test_button.setEnabled(True)
        self.test_label.setText(
            self.tr("✓ Connected: vectors of dimension {dim}, {ms} ms").format(
                dim=dim, ms=round(seconds * 1000)
            )
        )

    def _test_failed(self, exc: BaseException) -> None:
        self.test_button.setEnabled(True)
        self.test_label.setText("✗ " + describe_error(exc))

    def accept(self) -> None:
        try:
            self._result = self._collect()
        except SettingsError as exc:
            self.error_label.setText("⚠ " + describe_error(exc))
            self.error_label.show()
            return
        super().accept()

    def _collect(self) -> Settings:
        new = self.settings.copy()
        new.embedding = self._embedding_settings()
        texts = {
            "vault": self.vault_edit.text(),
            "language": self.language_combo.currentData(),
            "search.mode": self.mode_combo.currentData(),
            "search.top_k": str(self.top_k_spin.value()),
            "search.min_relevance": str(self.threshold_spin.value()),
            **self.chat_page.values(),
            "rerank.url": self.rerank_url.text(),
            "rerank.model": self.rerank_model.text(),
            "rerank.api_key": self.rerank_key.text(),
        }
        for key, text in texts.items():
            new.set_key(key, text)
        size, overlap = self.chunk_size_spin.value(), self.chunk_overlap_spin.value()
        if overlap >= size:
            raise SettingsError(
                self.tr(
                    "the chunk overlap ({overlap}) must be smaller than the chunk size ({size})"
                ).format(overlap=overlap, size=size)
            )
        new.chunk = ChunkSettings(size=size, overlap=overlap)
        return new

    def result_settings(self) -> Settings | None:
        """The validated new settings after Save; None after Cancel."""
        return self._result


def _page(form: QFormLayout) -> QWidget:
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    page = QWidget()
    page.setLayout(form)
    return page


def _note(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setEnabled(False)
    return label

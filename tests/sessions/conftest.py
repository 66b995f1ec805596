"""The view sessions' tests share the use cases' fixtures (a frozen project with one stored run)."""

from tests.tasks.conftest import stored  # noqa: F401 - the fixture

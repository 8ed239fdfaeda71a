"""A worker keeps each gunicorn setting once read (`api.worker.SettledConfig`): gunicorn reads a dozen of them at every
request, and a worker's settings never change."""

from __future__ import annotations

import pytest
from gunicorn.config import Config

from api import worker


def test_a_worker_reads_each_setting_once_and_keeps_it():
    cfg = Config()
    cfg.set("limit_request_line", 1234)
    setting = cfg.settings["limit_request_line"]
    reads = []
    read = setting.get
    setting.get = lambda: reads.append(1) or read()
    worker.settle(cfg)
    assert isinstance(cfg, worker.SettledConfig)
    assert [cfg.limit_request_line for _ in range(3)] == [1234] * 3
    assert len(reads) == 1
    assert cfg.is_ssl == Config().is_ssl  # gunicorn's properties are its own, as before
    with pytest.raises(AttributeError):
        cfg.no_such_setting  # noqa: B018 - what is asked is the refusal
    assert type(Config()) is Config  # the master's settings, and any other, as they were


def test_settings_of_gunicorn_s_own_kind_alone_are_settled():
    class Other(Config):
        pass

    cfg = Other()
    worker.settle(cfg)
    assert type(cfg) is Other

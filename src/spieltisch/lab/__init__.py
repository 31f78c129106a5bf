"""The designer's lab (``spieltisch lab``): compare rule variants and see a game's balance
in one self-contained HTML report.

``plan`` says what to play (variants, player counts, bots, seeds), ``play`` plays it
(``Backend``: processes here, or a Ray cluster), ``tables`` turns the records into pandas
tables and Parquet, ``stats`` computes every number with its interval, ``plots`` draws
them, ``words`` says them, ``report`` writes the page and ``index`` lists the reports
made on this machine for the server's Lab page. Only ``plan``, ``play``, ``profiles``
and ``index`` load without the ``lab`` extra (pandas, matplotlib, SciPy, statsmodels).
"""

from .plan import LabPlan, LabTask, Variant, parse_players, parse_variant
from .play import Backend, LocalProcesses, OnWorkers, play_lab_game

__all__ = ["Backend", "LabPlan", "LabTask", "LocalProcesses", "OnWorkers", "Variant",
           "parse_players", "parse_variant", "play_lab_game"]

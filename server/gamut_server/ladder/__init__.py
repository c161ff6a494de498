"""The rated ladder: accounts, pools, ratings, continuous pairing and standings.

The modules here are pure (no asyncio, no I/O, no clock of their own): ``accounts``
issues and checks tokens, ``ratings`` rates games with openskill, ``pairing`` chooses
who plays whom, ``standings`` ranks a pool and builds its crosstable, ``pools`` names
the pools a server offers. The async service that drives them lives in
:mod:`gamut_server.ladder_live`.
"""

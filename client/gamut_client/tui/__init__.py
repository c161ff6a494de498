"""``gamut play``: the full-screen terminal client.

The pure view-model modules (:mod:`~gamut_client.tui.session`,
:mod:`~gamut_client.tui.room_model`, :mod:`~gamut_client.tui.lobby_model`,
:mod:`~gamut_client.tui.board_layout`, :mod:`~gamut_client.tui.board_picture`,
:mod:`~gamut_client.tui.moves`, :mod:`~gamut_client.tui.clock`,
:mod:`~gamut_client.tui.seek_form`) turn protocol messages into what the screens
show; the textual widgets and screens only draw them and pass keys back.
"""

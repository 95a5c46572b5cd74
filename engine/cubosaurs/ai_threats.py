"""The strong level's threat table, measured by
:func:`engine.cubosaurs.ai_measure.measure_threat` (generated: do not edit by hand).

``THREAT[n][tile][status][b]``: a player's expected loss to that interactive tile
on offer before the round ends, per point of their exposure (the most one card's
loss would cost them now), with 6b-5..6b cards still to draw; status 0: they lead
for an opponent who can pay the tile, 1: only for opponents who cannot, 2: for
nobody (see :func:`engine.cubosaurs.ai.threats`)."""

THREAT = {
    3: {
        'destroy_other': (
            (0.609, 0.595, 0.417,),
            (0.137, 0.306, 0.421,),
            (0.067, 0.194, 0.362,),
        ),
        'steal': (
            (0.473, 0.404, 0.213,),
            (0.051, 0.133, 0.186,),
            (0.04, 0.14, 0.178,),
        ),
        'swap': (
            (0.753, 0.71, 0.398,),
            (0.071, 0.207, 0.268,),
            (0.045, 0.151, 0.249,),
        ),
        'give': (
            (0.13, 0.184, 0.219,),
            (0.029, 0.087, 0.137,),
            (0.034, 0.074, 0.142,),
        ),
    },
}

"""Tabletop Simulator exports: the exporter, the images the site hosts, the background job
and its pages.

The modules call one way only, each importing only those listed after it (the import-linter
contract `tts-one-way` in pyproject.toml holds them to it):

* `views`: the pages (start, watch, download, revoke or renew the link; the hosted images),
  and the answers the pack page and the API share.
* `jobs`: starting an export and running it in the background, through the exporter
  registered as "pack-tts" (catalog.exports.exporter_get).
* `services`: an export's life after its start: lost ones expired, finished ones deleted
  with their files, the link revoked or renewed.
* `hosting`: the hosted images on the media storage and their addresses, the saved object
  pointed at them or at a folder.
* `exporter`: the drawing of the sheets, the saved object and the zip, and the export's report
  (`export_report`: cards with stats not known yet, cards left out), from data only.

This file imports none of them: packs.apps imports `exporter` to register it.
"""

"""Media attached to questions: images, image folders and videos (sampled to frames).

A message names its images by reference, never by value: `message["images"]` is a list of
`sha256:<hex>` references to JPEGs in the media store (content-addressed, under the factprobe
cache dir) or of http(s) URLs. The response cache key therefore holds each image's hash, not its
bytes; the backends turn references into the wire format (factprobe.agents.models.wire).

May import: core, store, agents.
"""

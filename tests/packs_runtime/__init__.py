"""Hand-written packs for the runtime tests, with the binding.json that build would write."""

/**
 * The layers of src/, bottom to top: each entry is one layer, the top-level folders of src/ (the
 * subsystems) on it. A module imports only from its own subsystem or from a subsystem on a lower
 * layer; the subsystems of one layer are peers and do not import each other.
 *
 * The one source of truth for the layering: .dependency-cruiser.cjs builds its rules from it and
 * scripts/architecture-doc.ts writes docs/ARCHITECTURE.md's table of layers from it. A subsystem
 * listed here whose folder does not exist yet is simply never matched.
 */
const LAYERS = [
  ['core'],
  ['tokenizer'],
  ['deployment'],
  ['bench', 'sim', 'router'],
  ['catalog'],
  ['predict'],
  ['calibration', 'plots'],
  ['sweep', 'eval'],
  ['config-search'],
  ['dashboard'],
  ['cli'],
];

/** Subsystems with no front door: any of their modules may be imported from above. */
const NO_FRONT_DOOR = ['core'];

module.exports = { LAYERS, NO_FRONT_DOOR };

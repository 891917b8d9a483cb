/**
 * What the demo's members look like: how often a membership lands on each plan of the demo site
 * file (examples/sites/demo.yaml, by plan key), what they type into its text fields (by field
 * key), and their names.
 */

/** How often a new membership lands on each plan; a plan not named here gets 5. */
export const DEMO_PLAN_WEIGHTS: Readonly<Record<string, number>> = {
  community: 40,
  'seven-day-pass': 6,
  lifetime: 8,
  'workshop-2027': 4,
  'course-in-three-payments': 6,
  monthly: 22,
  yearly: 10,
  team: 1,
  'founders-2024': 2,
  'beta-testers': 1,
};

/** What members type into the demo's text fields, by field key. */
export const DEMO_ANSWERS: Readonly<Record<string, string[]>> = {
  company: ['Acme Corp', 'Globex', 'Initech', 'Université de Lyon', 'Stark Industries', 'Freelance', 'Umbrella GmbH', 'Self-employed'],
  goals: [
    'How to price my first product.',
    'Writing better newsletters.\nAnd finding the time for it.',
    'Everything about running a small studio!',
    'Ways to grow an audience without social media.',
    "I'm just curious — a friend recommended you.",
  ],
};

export const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken', 'Frances', 'Dennis', 'Radia', 'Linus', 'Hedy', 'Tim', 'Katherine', 'John', 'Joan', 'Niklaus', 'Sophie', 'Guido', 'Zoë', 'José', 'Chloé', 'Jürgen', 'Aiko', 'Mateo'];
export const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Thompson', 'Allen', 'Ritchie', 'Perlman', 'Torvalds', 'Lamarr', 'Berners-Lee', 'Johnson', 'McCarthy', 'Clarke', 'Wirth', 'Wilson', 'van Rossum', "O'Neil", 'García', 'Dubois', 'Müller', 'Tanaka', 'Silva'];

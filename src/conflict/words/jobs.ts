// What a person does for a living (issue 27, ninth round): the nouns a "I'm a nurse" / "I work as
// a teacher" pair speaks of. A person has one job at a time unless a text says otherwise ("also",
// "part-time", "on the side"). Not "student", "volunteer", "mother": roles held beside a job.

/** Occupations, singular. Two-word ones are matched by their last word ("dental hygienist"). */
export const JOBS: ReadonlySet<string> = new Set(
  ('nurse teacher doctor physician surgeon dentist hygienist pharmacist paramedic firefighter lawyer attorney ' +
    'accountant engineer electrician plumber carpenter mechanic chef baker butcher waiter waitress bartender barista ' +
    'farmer pilot programmer developer architect librarian cashier banker journalist reporter photographer ' +
    'hairdresser barber tailor realtor translator therapist psychologist vet veterinarian professor lecturer ' +
    'secretary receptionist cleaner janitor nanny postman mailman policeman officer soldier').split(' '),
)

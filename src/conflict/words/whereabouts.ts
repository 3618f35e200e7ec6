/**
 * Words of where a subject is (judge/checks/whereabouts.ts, session 11): the tools a meeting is
 * held on, which put it online, and the words after "in the" / "at the" that name no place.
 */
export const CALL_TOOLS = 'zoom teams skype webex'

/** "in the middle of", "at the moment", "in the works": no place. */
export const NOT_PLACES = 'middle moment end start beginning process mood way same past future meantime lead loop works red black top bottom back front least latest earliest most time weekend morning afternoon evening night'

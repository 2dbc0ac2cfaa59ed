/**
 * One step of a conversation, named after the rule of the spec it carries out: it moves the conversation's state on
 * and returns nothing, or ends the conversation with its outcome.
 */
export type Step<State, Outcome> = (state: State) => Promise<Outcome | undefined>;

/**
 * Runs a conversation as the spec numbers it: each step in turn over the one state they share, until a step ends it.
 * The last step must end it; a conversation that runs past it is a mistake in its declaration, not a payment's fate.
 */
export async function inTurn<State, Outcome>(state: State, steps: ReadonlyArray<Step<State, Outcome>>): Promise<Outcome> {
  for (const step of steps) {
    const outcome = await step(state);
    if (outcome !== undefined) return outcome;
  }
  throw new Error(`the conversation's last step (${steps[steps.length - 1]?.name}) did not end it`);
}

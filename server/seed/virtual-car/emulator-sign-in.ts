/** An ID token for an email and password from the Auth emulator's REST API (the emulator takes any API key). */
export async function emulatorSignIn(emulatorHost: string, email: string, password: string): Promise<string> {
  const response = await fetch(
    `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  const body = (await response.json()) as { idToken?: string; error?: { message: string } };
  if (!body.idToken)
    throw new Error(`signing in as ${email} at the Auth emulator failed: ${body.error?.message ?? response.status}`);
  return body.idToken;
}

// Sign in with email and password (POST /auth/login-email). Shown whenever there is no session;
// the page the user was on stays in the address (the hash) and comes back after sign-in.
import { useState, type FormEvent } from 'react';
import { issuesAt, toProblem, type Problem } from '../api/problem.ts';
import { signIn } from '../api/session.ts';
import { FieldError, ProblemView } from '../components/ProblemView.tsx';

export function SignIn({ reason, email: lastEmail }: { reason: string | null; email: string | null }) {
  const [email, setEmail] = useState(lastEmail ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await signIn(email, password);
    } catch (err) {
      setProblem(toProblem(err));
      setBusy(false);
    }
  }

  const emailErrors = issuesAt(problem, ['body', 'username']);
  const passwordErrors = issuesAt(problem, ['body', 'password']);
  return (
    <main className="signin" id="main">
      <h1>Crucible</h1>
      <p className="muted">Sign in to the console.</p>
      {reason && (
        <p className="notice" role="status">
          {reason}
        </p>
      )}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor="email">Email</label>
        <input
          id="email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={emailErrors.length > 0}
          aria-describedby={emailErrors.length ? 'email-error' : undefined}
        />
        <FieldError id="email-error" messages={emailErrors} />
        <label htmlFor="password">Password</label>
        <input
          id="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={passwordErrors.length > 0}
          aria-describedby={passwordErrors.length ? 'password-error' : undefined}
        />
        <FieldError id="password-error" messages={passwordErrors} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <ProblemView
        problem={problem}
        fields={[
          ['body', 'username'],
          ['body', 'password'],
        ]}
      />
    </main>
  );
}

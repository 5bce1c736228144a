// /signin – enter an API key once; the server answers an HttpOnly session cookie for the pages
import type { Metadata } from 'next';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

export default function SignInPage() {
  return <SignInForm />;
}

// /register – register a person through the webcam (live face guidance) or uploaded photos
import type { Metadata } from 'next';
import { RegisterPerson } from './register-person';

export const metadata: Metadata = { title: 'Register a person' };

export default function RegisterPage() {
  return <RegisterPerson />;
}

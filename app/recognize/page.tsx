// /recognize – name the people in front of the webcam (or in an uploaded photo)
import type { Metadata } from 'next';
import { RecognizeFaces } from './recognize-faces';

export const metadata: Metadata = { title: 'Recognize' };

export default function RecognizePage() {
  return <RecognizeFaces />;
}
